import Foundation
import JOSE
import JSON
import Testing

@Suite struct CustomTokenTests {
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// A custom token as the Python, Node and Go Admin SDKs make it in emulator mode.
    static func unsignedToken(_ claims: JSONObject) -> String {
        var payload: JSONObject = ["iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com", "aud": .string(audience), "iat": 1_700_000_000, "exp": 1_700_003_600]
        payload.merge(claims)
        return CompactJWT.unsigned(payload: payload)
    }

    @Test func unsignedCustomTokenCreatesThenSignsIn() throws {
        let emulator = try TestEmulator()
        let token = Self.unsignedToken(["uid": "custom-1", "claims": ["premium": true]])
        let first = try emulator.legacy("verifyCustomToken", ["token": .string(token), "returnSecureToken": true])
        #expect(first.status == 200)
        #expect(first["kind"] == "identitytoolkit#VerifyCustomTokenResponse")
        #expect(first["isNewUser"] == true)
        #expect(first["expiresIn"] == "3600")
        let claims = try TokenInspection.decode(first["idToken"]?.stringValue).payload
        #expect(claims["premium"] == true)
        #expect(claims["user_id"] == "custom-1")
        #expect(claims["firebase"]?["sign_in_provider"] == "custom")
        #expect(try emulator.client("signInWithCustomToken", ["token": .string(token)])["isNewUser"] == false)

        // Refreshing keeps the custom token's claims.
        let refreshed = try emulator.refresh(first["refreshToken"]!.stringValue!)
        #expect(try TokenInspection.decode(refreshed["id_token"]?.stringValue).payload["premium"] == true)
        let user = try emulator.admin("accounts:lookup", ["localId": ["custom-1"]])["users"]?.arrayValue?.first
        #expect(user?["customAuth"] == true)
    }

    @Test func javaStyleRS256HeaderWithEmptySignatureIsAccepted() throws {
        let emulator = try TestEmulator()
        let header = Base64URL.encode(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(JSONValue.object(["aud": .string(Self.audience), "uid": "java-user"]).encoded())
        let reply = try emulator.client("signInWithCustomToken", ["token": .string("\(header).\(payload).")])
        #expect(reply.status == 200)
        #expect(emulator.logLines.all.contains { $0.contains("Received a signed custom token") })
    }

    @Test func jsonCustomTokensAndErrors() throws {
        let emulator = try TestEmulator()
        #expect(try emulator.client("signInWithCustomToken", ["token": #"{"uid":42}"#])["isNewUser"] == true)
        #expect(try emulator.admin("accounts:lookup", ["localId": ["42"]])["users"] != nil)
        #expect(try emulator.client("signInWithCustomToken", [:]).errorMessage == "MISSING_CUSTOM_TOKEN")
        #expect(try emulator.client("signInWithCustomToken", ["token": "{nope"]).errorMessage == "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
        #expect(try emulator.client("signInWithCustomToken", ["token": "a.b"]).errorMessage == "INVALID_CUSTOM_TOKEN : Invalid assertion format")
        #expect(try emulator.client("signInWithCustomToken", ["token": #"{"claims":{}}"#]).errorMessage == "MISSING_IDENTIFIER")
        let idTokenAsCustom = CompactJWT.unsigned(payload: ["aud": "demo-test", "uid": "x"])
        #expect(try emulator.client("signInWithCustomToken", ["token": .string(idTokenAsCustom)]).errorMessage == "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): demo-test Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
        let reserved = Self.unsignedToken(["uid": "x", "claims": ["firebase": "x"]])
        #expect(try emulator.client("signInWithCustomToken", ["token": .string(reserved)]).errorMessage == "FORBIDDEN_CLAIM : firebase")
    }

    @Test func disabledCustomUserIsRefused() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "off", "disabled": true])
        #expect(try emulator.client("signInWithCustomToken", ["token": #"{"uid":"off"}"#]).errorMessage == "USER_DISABLED")
    }
}

@Suite struct SecureTokenTests {
    @Test func refreshWithAppleSDKCamelCaseJSON() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("r@example.com")
        emulator.clock.advance(seconds: 30)
        let reply = try emulator.refresh(signUp["refreshToken"]!.stringValue!)
        #expect(reply.status == 200)
        #expect(reply["expires_in"] == "3600")
        #expect(reply["token_type"] == "Bearer")
        #expect(reply["user_id"] == signUp["localId"])
        #expect(reply["project_id"] == "12345")
        #expect(reply["refresh_token"] == signUp["refreshToken"])
        #expect(reply["access_token"] == reply["id_token"])
        let claims = try TokenInspection.decode(reply["access_token"]?.stringValue).payload
        #expect(claims["iat"] == .int(TestEmulator.start.secondsSinceEpoch + 30))
        // auth_time stays at the sign-in, which Node's revocation check relies on.
        #expect(claims["auth_time"] == .int(TestEmulator.start.secondsSinceEpoch))
        #expect(claims["firebase"]?["sign_in_provider"] == "password")
    }

    @Test func refreshWithFormBody() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.client("signUp", [:])
        let token = signUp["refreshToken"]!.stringValue!
        let form = "grant_type=refresh_token&refresh_token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        let reply = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token?key=k", body: Array(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(reply.status == 200)
        #expect(try TokenInspection.decode(reply["id_token"]?.stringValue).payload["provider_id"] == "anonymous")
    }

    @Test func refreshErrors() throws {
        let emulator = try TestEmulator()
        func refresh(_ body: JSONValue) throws -> String? {
            try emulator.send("POST", "/securetoken.googleapis.com/v1/token?key=k", json: body).errorMessage
        }
        #expect(try refresh([:]) == "MISSING_GRANT_TYPE")
        #expect(try refresh(["grantType": "authorization_code"]) == "INVALID_GRANT_TYPE")
        #expect(try refresh(["grantType": "refresh_token"]) == "MISSING_REFRESH_TOKEN")
        #expect(try refresh(["grantType": "refresh_token", "refreshToken": "made-up"]) == "INVALID_REFRESH_TOKEN")
        // The Secure Token service takes API keys only.
        let ownerOnly = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token", json: ["grantType": "refresh_token", "refreshToken": "x"],
            headers: [("Authorization", "Bearer owner")])
        #expect(ownerOnly.status == 403)
    }

    @Test func revocationDisablingAndDeletionStopRefreshTokens() throws {
        let emulator = try TestEmulator()
        let revoked = try emulator.signUp("revoked@example.com")
        let disabled = try emulator.signUp("disabled@example.com")
        emulator.clock.advance(seconds: 2)
        _ = try emulator.admin("accounts:update", ["localId": revoked["localId"]!, "validSince": .int(emulator.clock.now().secondsSinceEpoch)])
        _ = try emulator.admin("accounts:update", ["localId": disabled["localId"]!, "disableUser": true])
        #expect(try emulator.refresh(revoked["refreshToken"]!.stringValue!).errorMessage == "TOKEN_EXPIRED")
        #expect(try emulator.refresh(disabled["refreshToken"]!.stringValue!).errorMessage == "USER_DISABLED")
        // A token from the same second as the revocation stays valid (strict comparison, as in every SDK).
        let fresh = try emulator.client("signInWithPassword", ["email": "revoked@example.com", "password": "secret123"])
        #expect(try emulator.refresh(fresh["refreshToken"]!.stringValue!).status == 200)
    }

    /// The official emulator's readable format, which tests decode, but the server never believes it:
    /// a record edited to name another user is an unknown token.
    @Test func refreshTokensReadAsTheOfficialRecordButAreNeverTrusted() throws {
        let emulator = try TestEmulator()
        let alice = try emulator.signUp("alice@example.com")
        let bob = try emulator.signUp("bob@example.com")
        let token = try #require(alice["refreshToken"]?.stringValue)
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
        let record = try #require(Data(base64Encoded: token).flatMap { try? JSONValue(parsing: String(decoding: $0, as: UTF8.self)) })
        #expect(record["_AuthEmulatorRefreshToken"] == "DO NOT MODIFY")
        #expect(record["localId"] == alice["localId"])
        #expect(record["provider"] == "password")
        #expect(record["projectId"] == .string(TestEmulator.project))
        #expect(record["extraClaims"] == [:])
        #expect(record["tenantId"] == nil)
        #expect(try #require(bob["refreshToken"]?.stringValue) != token)

        var forged = try #require(record.objectValue)
        forged["localId"] = bob["localId"]
        let forgedToken = Data(forged.compactString.utf8).base64EncodedString()
        #expect(try emulator.refresh(forgedToken).errorMessage == "INVALID_REFRESH_TOKEN")
        #expect(try emulator.refresh(token)["user_id"] == alice["localId"])
    }

    @Test func aRecreatedAccountDoesNotInheritOldRefreshTokens() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "reused", "email": "reused@example.com", "password": "secret123"])
        let signIn = try emulator.client("signInWithPassword", ["email": "reused@example.com", "password": "secret123"])
        _ = try emulator.admin("accounts:delete", ["localId": "reused"])
        emulator.clock.advance(seconds: 1)
        _ = try emulator.admin("accounts", ["localId": "reused"])
        #expect(try emulator.refresh(signIn["refreshToken"]!.stringValue!).errorMessage == "USER_NOT_FOUND")
    }
}
