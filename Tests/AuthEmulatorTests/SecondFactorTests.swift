import Foundation
import JSON
import Testing

@testable import AuthEmulator

/// The second-factor model and the admin rules around it.
@Suite struct SecondFactorTests {
    @Test func phoneHintsMaskEveryDigitButTheLastFour() {
        #expect(MFAEnrollment.obfuscate("+15555550100") == "+*******0100")
        #expect(MFAEnrollment.obfuscate("+44 20 7946 0958") == "+** ** **** 0958")
        #expect(MFAEnrollment.obfuscate("+123") == "+123")
    }

    @Test func rfc3339ReadsWhatItWrites() {
        for milliseconds: Int64 in [0, 1_700_000_000_123, 951_782_400_000, -86_400_000, 4_102_444_799_999] {
            let instant = Instant(millisecondsSinceEpoch: milliseconds)
            #expect(Instant(rfc3339: instant.rfc3339) == instant)
        }
        #expect(Instant(rfc3339: "2026-12-01T07:00:00Z")?.rfc3339 == "2026-12-01T07:00:00.000Z")
        #expect(Instant(rfc3339: "2026-13-01T00:00:00Z") == nil)
        #expect(Instant(rfc3339: "yesterday") == nil)
    }

    @Test func storedEnrollmentsKeepTheTOTPSecretButNeverShowIt() throws {
        let totp = MFAEnrollment(
            mfaEnrollmentId: "id1", displayName: "Phone app", enrolledAt: Instant(millisecondsSinceEpoch: 0),
            factor: .totp(secret: [1, 2, 3, 4, 5]))
        #expect(MFAEnrollment(stored: totp.storedJSON) == totp)
        #expect(totp.json["totpSecret"] == nil)
        #expect(totp.json["totpInfo"] == [:])
        let phone = MFAEnrollment(
            mfaEnrollmentId: "id2", displayName: nil, enrolledAt: Instant(millisecondsSinceEpoch: 5), factor: .phone("+15555550100"))
        #expect(MFAEnrollment(stored: phone.storedJSON) == phone)
        #expect(phone.redactedJSON["phoneInfo"] == "+*******0100")
        #expect(phone.redactedJSON["unobfuscatedPhoneInfo"] == nil)
    }

    @Test func pendingCredentialsRoundTripAndStayInTheirScope() throws {
        let scope = UserScope(projectId: "p", tenantId: "t")
        let missing = AuthError.invalid("MISSING")
        let credential = PendingCredential(localId: "u", signInProvider: "apple.com", scope: scope, extraClaims: ["role": "x"])
        #expect(try PendingCredential(decoding: credential.encoded, in: scope, missing: missing) == credential)
        #expect(throws: AuthError.invalid("INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")) {
            try PendingCredential(decoding: credential.encoded, in: UserScope(projectId: "p"), missing: missing)
        }
        #expect(throws: missing) { try PendingCredential(decoding: nil, in: scope, missing: missing) }
        #expect(throws: AuthError.self) { try PendingCredential(decoding: "bm90IGpzb24=", in: scope, missing: missing) }
    }

    @Test func adminEnrollmentsFollowTheReferenceRules() throws {
        let emulator = try TestEmulator()
        let user = try emulator.signUp("a@example.com")
        func update(_ enrollments: JSONValue) throws -> TestEmulator.Reply {
            try emulator.admin("accounts:update", ["localId": user["localId"]!, "mfa": ["enrollments": enrollments]])
        }
        #expect(try update([["mfaEnrollmentId": "e1", "phoneInfo": "555"]]).errorMessage == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
        #expect(try update([["phoneInfo": "+15555550100"]]).errorMessage == "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
        #expect(try update([["mfaEnrollmentId": "e1", "phoneInfo": "+15555550100"], ["mfaEnrollmentId": "e1", "phoneInfo": "+15555550101"]]).errorMessage == "DUPLICATE_MFA_ENROLLMENT_ID")
        #expect(try update(nil).errorMessage == "Invalid JSON payload received. /mfa/enrollments must be array")
        _ = try update([["mfaEnrollmentId": "e1", "phoneInfo": "+15555550100"], ["mfaEnrollmentId": "e2", "phoneInfo": "+15555550100"]])
        let looked = try emulator.admin("accounts:lookup", ["localId": [user["localId"]!]])["users"]?.arrayValue?.first
        #expect(looked?["mfaInfo"]?.arrayValue?.map { $0["mfaEnrollmentId"] } == ["e1"])
        // A password sign-in now stops at the second factor.
        let signIn = try emulator.client("signInWithPassword", ["email": "a@example.com", "password": "secret123"])
        #expect(signIn["idToken"] == nil)
        #expect(signIn["mfaInfo"]?.arrayValue?.first?["phoneInfo"] == "+*******0100")
        _ = try emulator.admin("accounts:update", ["localId": user["localId"]!, "mfa": [:]])
        #expect(try emulator.client("signInWithPassword", ["email": "a@example.com", "password": "secret123"])["idToken"] != nil)
    }

    @Test func smsCodesExpireAfterFiveMinutesAndAWrongCodeKeepsTheSession() throws {
        let emulator = try TestEmulator()
        let session = try emulator.legacy("sendVerificationCode", ["phoneNumber": "+15555550199", "clientType": "CLIENT_TYPE_IOS"])
        let sessionInfo = try #require(session["sessionInfo"]?.stringValue)
        let code = try #require(
            try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/verificationCodes")["verificationCodes"]?
                .arrayValue?.first?["code"]?.stringValue)
        let wrong = code == "000000" ? "111111" : "000000"
        #expect(try emulator.legacy("verifyPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(wrong)]).errorMessage == "INVALID_CODE")
        emulator.clock.advance(seconds: 301)
        #expect(try emulator.legacy("verifyPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(code)]).errorMessage == "SESSION_EXPIRED : The SMS code has expired. Please re-send the verification code to try again.")
    }

    @Test func testPhoneNumbersGetTheirFixedCodeAndNoSMS() throws {
        let emulator = try TestEmulator()
        let config = try emulator.send(
            "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/config",
            json: ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+16505551234": "123456"]]]])
        #expect(config["signIn"]?["phoneNumber"]?["testPhoneNumbers"] == ["+16505551234": "123456"])
        let session = try emulator.client("sendVerificationCode", ["phoneNumber": "+16505551234"])
        let signedIn = try emulator.client("signInWithPhoneNumber", ["sessionInfo": session["sessionInfo"]!, "code": "123456"])
        #expect(signedIn["isNewUser"] == true)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages")["messages"] == [])
        let bad = try emulator.send(
            "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/config",
            json: ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+16505551234": "12"]]]])
        #expect(bad.errorMessage == "INVALID_TEST_PHONE_NUMBER_CODE : The code of +16505551234 must be six digits.")
    }
}
