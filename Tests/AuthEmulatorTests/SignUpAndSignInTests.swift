import JSON
import Testing

@Suite struct SignUpAndSignInTests {
    @Test func anonymousSignUpIssuesTokens() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.legacy("signupNewUser", ["clientType": "CLIENT_TYPE_IOS", "returnSecureToken": true])
        #expect(reply.status == 200)
        #expect(reply["kind"] == "identitytoolkit#SignupNewUserResponse")
        #expect(reply["localId"]?.stringValue?.count == 28)
        #expect(reply["expiresIn"] == "3600")  // a string: the Apple SDK ignores numbers
        let token = try TokenInspection.decode(reply["idToken"]?.stringValue)
        #expect(token.header == ["alg": "none", "typ": "JWT"])
        #expect(reply["idToken"]?.stringValue?.hasSuffix(".") == true)
        #expect(token.payload["provider_id"] == "anonymous")
        #expect(token.payload["firebase"]?["sign_in_provider"] == "anonymous")
        #expect(token.payload["firebase"]?["identities"] == [:])
        #expect(token.payload["user_id"] == reply["localId"])
        #expect(token.payload["sub"] == reply["localId"])
        #expect(token.payload["iat"] == .int(TestEmulator.start.secondsSinceEpoch))
        #expect(token.payload["exp"] == .int(TestEmulator.start.secondsSinceEpoch + 3600))
        #expect(token.payload["auth_time"] == .int(TestEmulator.start.secondsSinceEpoch))
        #expect(token.payload["aud"] == .string(TestEmulator.project))
        #expect(token.payload["iss"] == .string("https://securetoken.google.com/\(TestEmulator.project)"))
    }

    @Test func emailPasswordSignUpThenSignIn() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("Ada@Example.com")
        #expect(signUp["email"] == "ada@example.com")
        let token = try TokenInspection.decode(signUp["idToken"]?.stringValue).payload
        #expect(token["email"] == "ada@example.com")
        #expect(token["email_verified"] == false)
        #expect(token["firebase"]?["identities"] == ["email": ["ada@example.com"]])
        #expect(token["firebase"]?["sign_in_provider"] == "password")
        #expect(token["provider_id"] == nil)

        emulator.clock.advance(seconds: 60)
        let signIn = try emulator.legacy("verifyPassword", ["email": "ADA@example.com", "password": "secret123"])
        #expect(signIn.status == 200)
        #expect(signIn["registered"] == true)
        #expect(signIn["localId"] == signUp["localId"])
        #expect(signIn["expiresIn"] == "3600")
        let signedIn = try TokenInspection.decode(signIn["idToken"]?.stringValue).payload
        #expect(signedIn["auth_time"] == .int(TestEmulator.start.secondsSinceEpoch + 60))
    }

    @Test func signUpValidation() throws {
        let emulator = try TestEmulator()
        try emulator.signUp("taken@example.com")
        #expect(try emulator.signUp("TAKEN@example.com").errorMessage == "EMAIL_EXISTS")
        #expect(try emulator.signUp("short@example.com", "12345").errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(try emulator.signUp("not-an-email").errorMessage == "INVALID_EMAIL")
        #expect(try emulator.client("signUp", ["email": "x@example.com"]).errorMessage == "MISSING_PASSWORD")
        #expect(try emulator.client("signUp", ["password": "secret123"]).errorMessage == "MISSING_EMAIL")
        #expect(try emulator.client("signUp", ["email": "", "password": ""]).errorMessage == "INVALID_EMAIL")
        #expect(try emulator.client("signUp", ["localId": "mine"]).errorMessage == "UNEXPECTED_PARAMETER : User ID")
        let error = try emulator.signUp("taken@example.com")
        #expect(error.status == 400)
        #expect(error.json == ["error": ["code": 400, "message": "EMAIL_EXISTS", "errors": [["message": "EMAIL_EXISTS", "reason": "invalid", "domain": "global"]]]])
    }

    @Test func linkingAPasswordToAnAnonymousUser() throws {
        let emulator = try TestEmulator()
        let anonymous = try emulator.client("signUp", [:])
        let linked = try emulator.legacy(
            "signupNewUser", ["idToken": anonymous["idToken"]!, "email": "link@example.com", "password": "secret123", "returnSecureToken": true])
        #expect(linked.status == 200)
        #expect(linked["localId"] == anonymous["localId"])
        #expect(linked["idToken"] != nil && linked["refreshToken"] != nil)
        let lookup = try emulator.legacy("getAccountInfo", ["idToken": linked["idToken"]!])
        let user = try #require(lookup["users"]?.arrayValue?.first)
        #expect(user["email"] == "link@example.com")
        #expect(user["providerUserInfo"]?.arrayValue?.first?["providerId"] == "password")
        #expect(user["passwordHash"]?.stringValue?.isEmpty == false)
    }

    @Test func adminCreatesUsersWithoutTokens() throws {
        let emulator = try TestEmulator()
        let created = try emulator.admin(
            "accounts",
            ["localId": "admin-made", "email": "made@example.com", "password": "secret123", "phoneNumber": "+15555550100",
             "displayName": "Made", "emailVerified": true, "disabled": true])
        #expect(created.status == 200)
        #expect(created["localId"] == "admin-made")
        #expect(created["idToken"] == nil)
        #expect(try emulator.admin("accounts", ["localId": "admin-made"]).errorMessage == "DUPLICATE_LOCAL_ID")
        #expect(try emulator.admin("accounts", ["phoneNumber": "+15555550100"]).errorMessage == "PHONE_NUMBER_EXISTS")
        #expect(try emulator.admin("accounts", ["phoneNumber": "5555550100"]).errorMessage == "INVALID_PHONE_NUMBER : Invalid format.")
        let user = try #require(try emulator.admin("accounts:lookup", ["localId": ["admin-made"]])["users"]?.arrayValue?.first)
        #expect(user["disabled"] == true)
        #expect(user["emailVerified"] == true)
        // No sign-in yet, as in production (the official emulator stamps admin creation).
        #expect(user["lastLoginAt"] == nil)
        #expect(user["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["password", "phone"])
    }

    @Test func passwordSignInErrors() throws {
        let emulator = try TestEmulator()
        try emulator.signUp("user@example.com")
        func signIn(_ email: JSONValue, _ password: JSONValue) throws -> String? {
            try emulator.client("signInWithPassword", ["email": email, "password": password]).errorMessage
        }
        #expect(try signIn("nobody@example.com", "secret123") == "EMAIL_NOT_FOUND")
        #expect(try signIn("user@example.com", "wrong-one") == "INVALID_PASSWORD")
        #expect(try signIn("", "secret123") == "INVALID_EMAIL")
        #expect(try signIn("user@example.com", "") == "MISSING_PASSWORD")
        #expect(try emulator.client("signInWithPassword", ["password": "x"]).errorMessage == "MISSING_EMAIL")

        // With email-enumeration protection, unknown email and wrong password look alike.
        let config = try emulator.send("PATCH", "/emulator/v1/projects/\(TestEmulator.project)/config", json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
        #expect(config["emailPrivacyConfig"] == ["enableImprovedEmailPrivacy": true])
        #expect(try signIn("nobody@example.com", "secret123") == "INVALID_LOGIN_CREDENTIALS")
        #expect(try signIn("user@example.com", "wrong-one") == "INVALID_LOGIN_CREDENTIALS")
    }

    @Test func disabledUsersCannotSignIn() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("off@example.com")
        _ = try emulator.admin("accounts:update", ["localId": signUp["localId"]!, "disableUser": true])
        #expect(try emulator.client("signInWithPassword", ["email": "off@example.com", "password": "secret123"]).errorMessage == "USER_DISABLED")
        #expect(try emulator.client("lookup", ["idToken": signUp["idToken"]!]).errorMessage == "USER_DISABLED")
    }
}
