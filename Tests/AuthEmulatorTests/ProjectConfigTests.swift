@testable import AuthEmulator
import Foundation
import JSON
import SQLiteStore
import Testing

@Suite struct ProjectConfigTests {
    static let config = "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/config"
    static let owner = [("Authorization", "Bearer owner")]

    /// Exactly the stored documents, as the official emulator answers: switches never stored are on
    /// (the sign-in tests show it) but are not written into the answer.
    @Test func getAnswersTheStoredConfigWithTheReferenceDefaults() throws {
        let emulator = try TestEmulator()
        let config = try emulator.send("GET", Self.config, headers: Self.owner)
        #expect(config.status == 200)
        #expect(config["name"] == .string("projects/\(TestEmulator.project)/config"))
        #expect(config["signIn"] == ["allowDuplicateEmails": false])
        #expect(config["mfa"] == nil)
        #expect(config["blockingFunctions"] == [:])
        #expect(config["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == false)
    }

    @Test func patchWithAMaskChangesOnlyThosePathsAndTheEmulatorViewAgrees() throws {
        let emulator = try TestEmulator()
        let patched = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=signIn.allowDuplicateEmails,signIn.phoneNumber.testPhoneNumbers",
            json: [
                "signIn": ["allowDuplicateEmails": true, "phoneNumber": ["testPhoneNumbers": ["+15555550123": "654321"]]],
                "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
            ], headers: Self.owner)
        #expect(patched.status == 200)
        #expect(patched["signIn"]?["allowDuplicateEmails"] == true)
        #expect(patched["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == false)
        let view = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/config")
        #expect(view["signIn"]?["allowDuplicateEmails"] == true)
        #expect(view["signIn"]?["phoneNumber"]?["testPhoneNumbers"] == ["+15555550123": "654321"])
        // Without a mask the document is replaced.
        let replaced = try emulator.send(
            "PATCH", Self.config, json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]], headers: Self.owner)
        #expect(replaced["signIn"]?["allowDuplicateEmails"] == false)
        #expect(replaced["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == true)
    }

    @Test func emailEnumerationProtectionReadsTheV2Config() throws {
        let emulator = try TestEmulator()
        _ = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=emailPrivacyConfig", json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]],
            headers: Self.owner)
        let signIn = try emulator.client("signInWithPassword", ["email": "nobody@example.com", "password": "secret123"])
        #expect(signIn.errorMessage == "INVALID_LOGIN_CREDENTIALS")
        let uri = try emulator.client("createAuthUri", ["identifier": "nobody@example.com", "continueUri": "http://x.test/"])
        #expect(uri["registered"] == nil)
    }

    @Test func projectSignInSwitchesGateTheirMethods() throws {
        let emulator = try TestEmulator()
        _ = try emulator.signUp("before@example.com")
        let patched = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=signIn.email.enabled,signIn.anonymous.enabled,signIn.phoneNumber.enabled",
            json: ["signIn": ["email": ["enabled": false], "anonymous": ["enabled": false], "phoneNumber": ["enabled": false]]],
            headers: Self.owner)
        #expect(patched["signIn"]?["email"] == ["enabled": false])
        #expect(try emulator.signUp("after@example.com").errorMessage == "OPERATION_NOT_ALLOWED")
        #expect(try emulator.client("signUp", [:]).errorMessage == "ADMIN_ONLY_OPERATION")
        #expect(try emulator.client("signInWithPassword", ["email": "before@example.com", "password": "secret123"])
            .errorMessage == "PASSWORD_LOGIN_DISABLED")
        #expect(try emulator.client("sendVerificationCode", ["phoneNumber": "+15555550100", "recaptchaToken": "t"])
            .errorMessage == "OPERATION_NOT_ALLOWED")
        // The owner still creates users.
        #expect(try emulator.admin("accounts", ["email": "admin@example.com", "password": "secret123"]).status == 200)
    }

    @Test func badBlockingFunctionsAreRefusedAndChangeNothing() throws {
        let emulator = try TestEmulator()
        let badEvent = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=signIn.allowDuplicateEmails",
            json: ["signIn": ["allowDuplicateEmails": true], "blockingFunctions": ["triggers": ["onWhatever": ["functionUri": "http://x.test/"]]]],
            headers: Self.owner)
        #expect(badEvent.errorMessage == "INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))")
        let badUri = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=blockingFunctions",
            json: ["blockingFunctions": ["triggers": ["beforeCreate": ["functionUri": "not a uri"]]]], headers: Self.owner)
        #expect(badUri.errorMessage == "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))")
        #expect(try emulator.send("GET", Self.config, headers: Self.owner)["signIn"]?["allowDuplicateEmails"] == false)
        let wrongType = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=signIn.allowDuplicateEmails", json: ["signIn": ["allowDuplicateEmails": "yes"]],
            headers: Self.owner)
        #expect(wrongType.status == 400)
    }

    @Test func passwordPolicyAndRecaptchaConfigAreWhatSDKsParse() throws {
        let emulator = try TestEmulator()
        let policy = try emulator.send("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k")
        #expect(policy["customStrengthOptions"]?["minPasswordLength"] == 6)
        #expect(policy["enforcementState"] == "OFF")
        #expect(policy["schemaVersion"] == 1)
        let recaptcha = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig?key=k&clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE")
        #expect(recaptcha["recaptchaKey"] == nil)
        #expect(recaptcha["recaptchaEnforcementState"]?.arrayValue?.allSatisfy { $0["enforcementState"] == "OFF" } == true)
    }

    @Test func configAndTenantsSurviveARestartWithData() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).sqlite").path
        defer { RefreshTokenStorageTests.remove(file) }
        var tenantId = ""
        do {
            let emulator = try TestEmulator(dataFile: file)
            _ = try emulator.send(
                "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/config", json: ["signIn": ["allowDuplicateEmails": true]])
            tenantId = try emulator.send(
                "POST", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants", json: ["displayName": "Kept"],
                headers: Self.owner)["tenantId"]!.stringValue!
        }
        let again = try TestEmulator(dataFile: file)
        #expect(try again.send("GET", Self.config, headers: Self.owner)["signIn"]?["allowDuplicateEmails"] == true)
        let tenant = try again.send(
            "GET", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants/\(tenantId)", headers: Self.owner)
        #expect(tenant["displayName"] == "Kept")
    }
}

/// Migration 6 moves a version-4 database's config columns into the JSON document.
@Suite struct ConfigMigrationTests {
    @Test func oldConfigColumnsBecomeTheDocument() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID().uuidString).sqlite").path
        defer { RefreshTokenStorageTests.remove(file) }
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 4 })
            try old.write { connection in
                try connection.execute(
                    "INSERT INTO project_config (project_id, allow_duplicate_emails, improved_email_privacy, test_phone_numbers) VALUES (?, 1, 1, ?)",
                    [.text(TestEmulator.project), .text(#"{"+15555550123":"111222"}"#)])
                try connection.execute(
                    "INSERT INTO project_config (project_id, allow_duplicate_emails, improved_email_privacy) VALUES ('other', 0, 0)")
            }
        }
        let emulator = try TestEmulator(dataFile: file)
        let view = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/config")
        #expect(view.json == [
            "signIn": ["allowDuplicateEmails": true, "phoneNumber": ["testPhoneNumbers": ["+15555550123": "111222"]]],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
        ])
        let other = try emulator.send("GET", "/emulator/v1/projects/other/config")
        #expect(other["signIn"]?["allowDuplicateEmails"] == false)
    }
}
