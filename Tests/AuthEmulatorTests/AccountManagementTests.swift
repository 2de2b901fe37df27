import JSON
import Testing

@Suite struct AccountManagementTests {
    @Test func lookupByIdTokenReturnsTheStoredRecord() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("look@example.com")
        let reply = try emulator.client("lookup", ["idToken": signUp["idToken"]!])
        #expect(reply["kind"] == "identitytoolkit#GetAccountInfoResponse")
        let users = try #require(reply["users"]?.arrayValue)
        #expect(users.count == 1)
        let user = users[0]
        #expect(user["localId"] == signUp["localId"])
        #expect(user["createdAt"] == .string(String(TestEmulator.start.millisecondsSinceEpoch)))
        #expect(user["lastLoginAt"] == .string(String(TestEmulator.start.millisecondsSinceEpoch)))
        #expect(user["validSince"] == .string(String(TestEmulator.start.secondsSinceEpoch)))
        #expect(user["passwordUpdatedAt"] == .int(TestEmulator.start.millisecondsSinceEpoch))
        #expect(user["lastRefreshAt"] == "2023-11-14T22:13:20.000Z")
        #expect(user["emailVerified"] == false)
        #expect(user["salt"]?.stringValue?.hasPrefix("fakeSalt") == true)
        #expect(user["passwordHash"] == .string("fakeHash:salt=\(user["salt"]!.stringValue!):password=secret123"))
        #expect(user["providerUserInfo"] == [["providerId": "password", "rawId": "look@example.com", "federatedId": "look@example.com", "email": "look@example.com"]])
        #expect(try emulator.client("lookup", [:]).errorMessage == "MISSING_ID_TOKEN")
        #expect(try emulator.client("lookup", ["idToken": "garbage"]).errorMessage == "INVALID_ID_TOKEN")
    }

    @Test func adminLookupByEveryIdentifier() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "a", "email": "a@example.com", "phoneNumber": "+15555550101"])
        _ = try emulator.admin("accounts", ["localId": "b"])
        _ = try emulator.admin("accounts:update", ["localId": "b", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-123", "email": "b@gmail.com"]])
        let reply = try emulator.admin(
            "accounts:lookup",
            ["localId": ["a", "missing"], "email": ["A@example.com"], "phoneNumber": ["+15555550101"],
             "federatedUserId": [["providerId": "google.com", "rawId": "g-123"], ["providerId": "google.com"]]])
        #expect(reply["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["a", "b"])
        let none = try emulator.admin("accounts:lookup", ["localId": ["missing"]])
        #expect(none.status == 200)
        #expect(none.json == ["kind": "identitytoolkit#GetAccountInfoResponse"])
        // Nobody changed from this address.
        #expect(try emulator.admin("accounts:lookup", ["initialEmail": ["x@example.com"]])["users"] == nil)
    }

    @Test func profileUpdateKeepsTokens() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("p@example.com")
        let reply = try emulator.legacy(
            "setAccountInfo", ["idToken": signUp["idToken"]!, "displayName": "Pat", "photoUrl": "http://photo.test/p.png", "returnSecureToken": true])
        #expect(reply["kind"] == "identitytoolkit#SetAccountInfoResponse")
        #expect(reply["displayName"] == "Pat")
        #expect(reply["photoUrl"] == "http://photo.test/p.png")
        #expect(reply["idToken"] == nil)
        #expect(reply["providerUserInfo"]?.arrayValue?.first?["displayName"] == "Pat")
        // The old token still works: nothing was revoked.
        #expect(try emulator.client("lookup", ["idToken": signUp["idToken"]!]).status == 200)
    }

    @Test func passwordChangeRevokesOlderTokensAndIssuesNewOnes() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("pw@example.com")
        emulator.clock.advance(seconds: 5)
        let change = try emulator.client("update", ["idToken": signUp["idToken"]!, "password": "another-secret"])
        #expect(change["idToken"] != nil)
        #expect(change["expiresIn"] == "3600")
        #expect(try emulator.client("lookup", ["idToken": signUp["idToken"]!]).errorMessage == "TOKEN_EXPIRED")
        #expect(try emulator.refresh(signUp["refreshToken"]!.stringValue!).errorMessage == "TOKEN_EXPIRED")
        #expect(try emulator.client("lookup", ["idToken": change["idToken"]!]).status == 200)
        #expect(try emulator.refresh(change["refreshToken"]!.stringValue!).status == 200)
        #expect(try emulator.client("signInWithPassword", ["email": "pw@example.com", "password": "another-secret"]).status == 200)
        #expect(try emulator.client("update", ["idToken": change["idToken"]!, "password": "short"]).errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
    }

    @Test func emailChangeRecordsTheInitialEmail() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("first@example.com")
        try emulator.signUp("other@example.com")
        #expect(try emulator.client("update", ["idToken": signUp["idToken"]!, "email": "OTHER@example.com"]).errorMessage == "EMAIL_EXISTS")
        #expect(try emulator.client("update", ["idToken": signUp["idToken"]!, "email": "bad"]).errorMessage == "INVALID_EMAIL")
        let change = try emulator.client("update", ["idToken": signUp["idToken"]!, "email": "Second@example.com"])
        #expect(change["email"] == "second@example.com")
        #expect(change["newEmail"] == "second@example.com")
        #expect(change["emailVerified"] == false)
        #expect(change["idToken"] != nil)
        let user = try emulator.admin("accounts:lookup", ["localId": [signUp["localId"]!]])["users"]?.arrayValue?.first
        #expect(user?["initialEmail"] == "first@example.com")
        let byInitialEmail = try emulator.admin("accounts:lookup", ["initialEmail": ["FIRST@example.com"]])["users"]?.arrayValue
        #expect(byInitialEmail?.map { $0["localId"] } == [signUp["localId"]!])
    }

    @Test func unprivilegedUpdatesNeedAToken() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("u@example.com")
        #expect(try emulator.client("update", ["displayName": "x"]).errorMessage == "INVALID_REQ_TYPE : Unsupported request parameters.")
        #expect(try emulator.client("update", ["idToken": signUp["idToken"]!, "customAttributes": "{}"]).errorMessage == "INSUFFICIENT_PERMISSION")
        #expect(try emulator.client("update", ["idToken": signUp["idToken"]!, "disableUser": true]).errorMessage == "OPERATION_NOT_ALLOWED")
        #expect(try emulator.admin("accounts:update", ["displayName": "x"]).errorMessage == "MISSING_LOCAL_ID")
        #expect(try emulator.admin("accounts:update", ["localId": "ghost"]).errorMessage == "USER_NOT_FOUND")
        #expect(try emulator.client("update", ["oobCode": "unknown"]).errorMessage == "INVALID_OOB_CODE")
    }

    @Test func adminUpdatesAndCustomClaims() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("claims@example.com")
        let localId = signUp["localId"]!
        let update = try emulator.admin(
            "accounts:update",
            ["localId": localId, "customAttributes": #"{"admin":true,"level":3}"#, "emailVerified": true, "phoneNumber": "+15555550199", "validSince": 1_700_000_100])
        #expect(update.status == 200)
        let user = try #require(try emulator.admin("accounts:lookup", ["localId": [localId]])["users"]?.arrayValue?.first)
        #expect(user["customAttributes"] == #"{"admin":true,"level":3}"#)
        #expect(user["phoneNumber"] == "+15555550199")
        #expect(user["validSince"] == "1700000100")

        emulator.clock.advance(seconds: 200)
        let signIn = try emulator.client("signInWithPassword", ["email": "claims@example.com", "password": "secret123"])
        let claims = try TokenInspection.decode(signIn["idToken"]?.stringValue).payload
        #expect(claims["admin"] == true)
        #expect(claims["level"] == 3)
        #expect(claims["phone_number"] == "+15555550199")
        #expect(claims["firebase"]?["identities"] == ["email": ["claims@example.com"], "phone": ["+15555550199"]])

        func claimError(_ claims: String) throws -> String? {
            try emulator.admin("accounts:update", ["localId": localId, "customAttributes": .string(claims)]).errorMessage
        }
        #expect(try claimError(#"{"sub":"x"}"#) == "FORBIDDEN_CLAIM : sub")
        #expect(try claimError("[1]") == "INVALID_CLAIMS")
        #expect(try claimError("not json") == "INVALID_CLAIMS")
        #expect(try claimError(#"{"k":""# + String(repeating: "x", count: 1000) + #""}"#) == "CLAIMS_TOO_LARGE")
    }

    @Test func deletingAttributesAndProviders() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "d", "email": "d@example.com", "password": "secret123", "displayName": "D", "phoneNumber": "+15555550123"])
        _ = try emulator.admin("accounts:update", ["localId": "d", "linkProviderUserInfo": ["providerId": "github.com", "rawId": "gh-1"]])
        let update = try emulator.admin("accounts:update", ["localId": "d", "deleteAttribute": ["DISPLAY_NAME"], "deleteProvider": ["phone", "github.com"]])
        #expect(update["displayName"] == nil)
        #expect(update["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["password"])
        let unlinkPassword = try emulator.admin("accounts:update", ["localId": "d", "deleteProvider": ["password"]])
        #expect(unlinkPassword["email"] == nil)
        #expect(unlinkPassword["providerUserInfo"] == [])
        #expect(try emulator.admin("accounts:update", ["localId": "d", "deleteAttribute": ["PROVIDER"]]).status == 501)
        #expect(try emulator.admin("accounts:update", ["localId": "d", "linkProviderUserInfo": ["rawId": "x"]]).errorMessage == "MISSING_PROVIDER_ID")
        #expect(try emulator.admin("accounts:update", ["localId": "d", "linkProviderUserInfo": ["providerId": "x.com"]]).errorMessage == "MISSING_RAW_ID")
    }

    @Test func deleteByTokenAndByAdmin() throws {
        let emulator = try TestEmulator()
        let mine = try emulator.signUp("mine@example.com")
        let deleted = try emulator.legacy("deleteAccount", ["idToken": mine["idToken"]!, "localId": mine["localId"]!])
        #expect(deleted.json == ["kind": "identitytoolkit#DeleteAccountResponse"])
        #expect(try emulator.client("lookup", ["idToken": mine["idToken"]!]).errorMessage == "USER_NOT_FOUND")
        #expect(try emulator.refresh(mine["refreshToken"]!.stringValue!).errorMessage == "USER_NOT_FOUND")

        _ = try emulator.admin("accounts", ["localId": "gone"])
        #expect(try emulator.admin("accounts:delete", ["localId": "gone"]).status == 200)
        #expect(try emulator.admin("accounts:delete", ["localId": "gone"]).errorMessage == "USER_NOT_FOUND")
        #expect(try emulator.admin("accounts:delete", [:]).errorMessage == "MISSING_LOCAL_ID")
        #expect(try emulator.client("delete", [:]).errorMessage == "MISSING_ID_TOKEN")
    }

    @Test func createAuthUriListsSignInMethods() throws {
        let emulator = try TestEmulator()
        try emulator.signUp("methods@example.com")
        let registered = try emulator.legacy("createAuthUri", ["identifier": "Methods@example.com", "continueUri": "http://www.google.com/"])
        #expect(registered["registered"] == true)
        #expect(registered["signinMethods"] == ["password"])
        #expect(registered["allProviders"] == ["password"])
        #expect(registered["sessionId"]?.stringValue?.count == 27)
        let unknown = try emulator.client("createAuthUri", ["identifier": "new@example.com", "continueUri": "http://localhost/", "sessionId": "s1"])
        #expect(unknown.json == ["kind": "identitytoolkit#CreateAuthUriResponse", "registered": false, "allProviders": [], "sessionId": "s1", "signinMethods": []])
        #expect(try emulator.client("createAuthUri", ["continueUri": "http://localhost/"]).errorMessage == "MISSING_IDENTIFIER")
        #expect(try emulator.client("createAuthUri", ["identifier": "a@b.c"]).errorMessage == "MISSING_CONTINUE_URI")
        #expect(try emulator.client("createAuthUri", ["identifier": "nope", "continueUri": "http://localhost/"]).errorMessage == "INVALID_IDENTIFIER")
        #expect(try emulator.client("createAuthUri", ["identifier": "a@b.c", "continueUri": "relative"]).errorMessage == "INVALID_CONTINUE_URI")
    }
}
