import AuthEmulator
import Foundation
import JSON
import Testing

@Suite struct EmulatorRouteTests {
    @Test func deleteAllAccountsClearsOneProject() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("a@example.com")
        let cleared = try emulator.send("DELETE", "/emulator/v1/projects/\(TestEmulator.project)/accounts")
        #expect(cleared.status == 200)
        #expect(cleared.json == [:])
        #expect(try emulator.client("lookup", ["idToken": signUp["idToken"]!]).errorMessage == "USER_NOT_FOUND")
        #expect(try emulator.refresh(signUp["refreshToken"]!.stringValue!).errorMessage == "INVALID_REFRESH_TOKEN")
        #expect(try emulator.signUp("a@example.com").status == 200)
    }

    @Test func tenantAccountsAreClearedSeparately() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "in-tenant"], tenant: "t1")
        _ = try emulator.admin("accounts", ["localId": "in-project"])
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(TestEmulator.project)/tenants/t1/accounts").status == 200)
        #expect(try emulator.admin("accounts:lookup", ["localId": ["in-tenant"]], tenant: "t1")["users"] == nil)
        #expect(try emulator.admin("accounts:lookup", ["localId": ["in-project"]])["users"] != nil)
        // A tenant user's token names its tenant, and routes the lookup there without a tenantId.
        let custom = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
            json: ["token": #"{"uid":"t-user"}"#, "tenantId": "t2"])
        let claims = try TokenInspection.decode(custom["idToken"]?.stringValue).payload
        #expect(claims["firebase"]?["tenant"] == "t2")
        let lookup = try emulator.client("lookup", ["idToken": custom["idToken"]!])
        #expect(lookup["users"]?.arrayValue?.first?["tenantId"] == "t2")
        #expect(try emulator.client("lookup", ["idToken": custom["idToken"]!, "tenantId": "t1"]).errorMessage == "TENANT_ID_MISMATCH")
    }

    @Test func configIsReadAndPatched() throws {
        let emulator = try TestEmulator()
        let path = "/emulator/v1/projects/\(TestEmulator.project)/config"
        #expect(try emulator.send("GET", path).json == ["signIn": ["allowDuplicateEmails": false], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
        let patched = try emulator.send("PATCH", path, json: ["signIn": ["allowDuplicateEmails": true]])
        #expect(patched.json == ["signIn": ["allowDuplicateEmails": true], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
        #expect(try emulator.send("GET", path).json == patched.json)
        // The reference's quirk: a body with neither field resets everything.
        #expect(try emulator.send("PATCH", path, json: [:])["signIn"] == ["allowDuplicateEmails": false])
    }

    @Test func oobCodesListIsEmptyBeforeAnyEmailAction() throws {
        let emulator = try TestEmulator()
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/oobCodes").json == ["oobCodes": []])
    }

    @Test func stateSurvivesARestartOnTheSameFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("auth.sqlite").path

        var signUp: TestEmulator.Reply
        do {
            let first = try TestEmulator(dataFile: file)
            signUp = try first.signUp("durable@example.com")
            _ = try first.admin("accounts:update", ["localId": signUp["localId"]!, "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-1"], "customAttributes": #"{"role":"x"}"#])
            first.emulator.stop()
        }
        let second = try TestEmulator(dataFile: file)
        let signIn = try second.client("signInWithPassword", ["email": "durable@example.com", "password": "secret123"])
        #expect(signIn["localId"] == signUp["localId"])
        let refreshed = try second.refresh(signUp["refreshToken"]!.stringValue!)
        #expect(refreshed.status == 200)
        #expect(try TokenInspection.decode(refreshed["id_token"]?.stringValue).payload["role"] == "x")
        let federated = try second.admin("accounts:lookup", ["federatedUserId": [["providerId": "google.com", "rawId": "g-1"]]])
        #expect(federated["users"]?.arrayValue?.first?["localId"] == signUp["localId"])
    }
}

@Suite struct CommandLineOptionsTests {
    @Test func defaults() throws {
        guard case .run(let command) = try CommandLineOptions.parse([]) else { Issue.record("not run"); return }
        let configuration = command.configuration
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 9099)
        #expect(configuration.projectId == "demo-project")
        #expect(configuration.dataFile == nil)
        #expect(configuration.logLevel == .info)
    }

    @Test func everyFlag() throws {
        let outcome = try CommandLineOptions.parse(["--host", "0.0.0.0", "--port=0", "--project", "my-app", "--data", "/tmp/a.sqlite", "--log-level", "warn"])
        guard case .run(let command) = outcome else { Issue.record("not run"); return }
        let configuration = command.configuration
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 0)
        #expect(configuration.projectId == "my-app")
        #expect(configuration.dataFile == "/tmp/a.sqlite")
        #expect(configuration.logLevel == .warning)
        guard case .help(let usage) = try CommandLineOptions.parse(["--help"]) else { Issue.record("not help"); return }
        #expect(usage.hasPrefix("usage: auth-emulator"))
        #expect(try CommandLineOptions.parse(["--version"]) == .version)
    }

    @Test(arguments: [["--nope"], ["--port", "99999"], ["--port"], ["--log-level", "loud"], ["--project", "bad project"], ["--data", ""]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) {
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(arguments) }
    }
}
