import Foundation
@testable import AuthEmulator
import JOSE
import JSON
import Testing

/// signInWithIdp against the fake providers, end to end over a real socket: what is verified,
/// what each failure says, and what a refused request leaves behind (nothing).
@Suite struct FederationTests {
    // MARK: Helpers

    static func mint(_ emulator: TestEmulator, _ providerId: String, _ body: JSONObject = [:]) throws -> TestEmulator.Reply {
        let reply = try emulator.send("POST", "/emulator/v1/idp/\(providerId)/tokens", json: .object(body))
        #expect(reply.status == 200, "mint failed: \(reply.json)")
        return reply
    }

    static func signIn(
        _ emulator: TestEmulator, postBody: String, idToken: String? = nil, autoCreate: Bool = true,
        returnIdpCredential: Bool = true
    ) throws -> TestEmulator.Reply {
        var body: JSONObject = [
            "requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true,
            "returnIdpCredential": .bool(returnIdpCredential), "autoCreate": .bool(autoCreate),
        ]
        body.setIfPresent("idToken", idToken.map { .string($0) })
        return try emulator.legacy("verifyAssertion", .object(body))
    }

    static func userCount(_ emulator: TestEmulator) throws -> Int {
        let reply = try emulator.admin("accounts:query", ["returnUserInfo": false])
        return Int(reply["recordsCount"]?.stringValue ?? "") ?? -1
    }

    /// Re-encodes a token with a changed header or payload, keeping its signature.
    static func tamper(_ token: String, header: (inout JSONObject) -> Void = { _ in }, payload: (inout JSONObject) -> Void = { _ in }) throws -> String {
        let jwt = try CompactJWT(parsing: token)
        var newHeader = jwt.header
        var newPayload = jwt.payload
        header(&newHeader)
        payload(&newPayload)
        let signature = token.split(separator: ".", omittingEmptySubsequences: false)[2]
        return Base64URL.encode(newHeader.encoded()) + "." + Base64URL.encode(newPayload.encoded()) + "." + signature
    }

    // MARK: Minting

    @Test func appleTokensAreShapedLikeApplesAndVerifyWithTheJWKS() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "ada@example.com", "nonce": "raw-1", "hideEmail": true])
        let token = try CompactJWT(parsing: minted["idToken"]?.stringValue ?? "")
        let claims = token.payload
        #expect(claims["iss"] == "https://appleid.apple.com")
        #expect(claims["aud"] == "com.example.app")
        #expect(claims["email_verified"] == "true")
        #expect(claims["is_private_email"] == "true")
        #expect(claims["nonce"] == .string(SHA256.hexDigest(of: "raw-1")))
        #expect(claims["nonce_supported"] == true)
        #expect(claims["real_user_status"] == 2)
        #expect(claims["exp"]?.int64Value == TestEmulator.start.secondsSinceEpoch + 600)
        let sub = try #require(claims["sub"]?.stringValue)
        #expect(sub.split(separator: ".").count == 3)
        #expect(minted["realEmail"] == "ada@example.com")
        let relay = try #require(minted["email"]?.stringValue)
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        #expect(claims["c_hash"] != nil)
        #expect(minted["postBody"]?.stringValue?.hasSuffix("&nonce=raw-1") == true)

        let jwks = try emulator.send("GET", "/emulator/v1/idp/apple.com/jwks")["keys"]?.arrayValue ?? []
        let jwk = try #require(jwks.first { $0["kid"]?.stringValue == token.keyID }?.objectValue)
        #expect(token.verify(with: try VerificationKey(jwk: jwk)))

        // The same person again: the same sub and the same relay address.
        let again = try Self.mint(emulator, "apple.com", ["email": "ada@example.com", "hideEmail": true])
        #expect(again["sub"]?.stringValue == sub)
        #expect(again["email"]?.stringValue == relay)
        let relays = try emulator.send("GET", "/emulator/v1/idp/apple.com/relay")["addresses"]?.arrayValue ?? []
        #expect(relays == [["address": .string(relay), "forwardTo": "ada@example.com", "forwarding": true]])
        let off = try emulator.send("PATCH", "/emulator/v1/idp/apple.com/relay/\(relay)", json: ["forwarding": false])
        #expect(off["forwarding"] == false)
        #expect(try emulator.send("PATCH", "/emulator/v1/idp/apple.com/relay/nobody@privaterelay.appleid.com", json: ["forwarding": false]).status == 404)
    }

    @Test func mintedClaimsKeepTheirKeysAndWin() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "oidc.example", ["claims": ["is_private_email": "x", "custom_claim": 1, "iss": "https://evil.example"]])
        let claims = try CompactJWT(parsing: minted["idToken"]?.stringValue ?? "").payload
        #expect(claims["is_private_email"] == "x")
        #expect(claims["custom_claim"] == 1)
        #expect(claims["iss"] == "https://evil.example")
        let reply = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        #expect(reply.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : The id_token iss is https://evil.example;") == true)
    }

    @Test func badMintRequestsAreRefused() throws {
        let emulator = try TestEmulator()
        let badAlg = try emulator.send("POST", "/emulator/v1/idp/apple.com/tokens", json: ["alg": "HS256"])
        #expect(badAlg.errorMessage == "INVALID_ARGUMENT : alg must be RS256 or ES256, not HS256.")
        let badEmail = try emulator.send("POST", "/emulator/v1/idp/apple.com/tokens", json: ["email": "no-at-sign"])
        #expect(badEmail.errorMessage == "INVALID_EMAIL")
        let badLifetime = try emulator.send("POST", "/emulator/v1/idp/apple.com/tokens", json: ["expiresInSeconds": 0])
        #expect(badLifetime.status == 400)
    }

    // MARK: Verification

    @Test func aNewAppleUserSignsInThroughTheV3PathWithARawNonce() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "new@example.com", "nonce": "n-1"])
        let reply = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        #expect(reply.status == 200)
        #expect(reply["isNewUser"] == true)
        #expect(reply["providerId"] == "apple.com")
        #expect(reply["federatedId"] == minted["sub"])
        #expect(reply["expiresIn"] == "3600")
        #expect(reply["oauthIdToken"] == minted["idToken"])
        let firebase = try TokenInspection.decode(reply["idToken"]?.stringValue).payload["firebase"]
        #expect(firebase?["sign_in_provider"] == "apple.com")
        #expect(firebase?["identities"]?["apple.com"] == [minted["sub"]!])

        let returning = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        #expect(returning["isNewUser"] == nil)
        #expect(returning["localId"] == reply["localId"])
    }

    @Test func everyVerificationFailureIsRefusedAndWritesNothing() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "v@example.com", "nonce": "n"])
        let token = minted["idToken"]?.stringValue ?? ""
        let kid = try CompactJWT(parsing: token).keyID ?? ""
        func verdict(_ idToken: String, nonce: String? = "n", provider: String = "apple.com") throws -> String? {
            let nonceParameter = nonce.map { "&nonce=\($0)" } ?? ""
            return try Self.signIn(emulator, postBody: "providerId=\(provider)&id_token=\(idToken)\(nonceParameter)").errorMessage
        }
        let altered = try Self.tamper(token) { $0["email"] = "mallory@example.com" }
        #expect(try verdict(altered) == "INVALID_IDP_RESPONSE : The id_token signature does not verify with key \(kid): the token was altered after signing.")
        let critical = try Self.tamper(token, header: { $0["crit"] = ["exp"] })
        #expect(try verdict(critical) == "INVALID_IDP_RESPONSE : The id_token header lists critical extensions this verifier does not understand (crit: exp).")
        let confused = try Self.tamper(token, header: { $0["alg"] = "ES256" })
        #expect(try verdict(confused) == "INVALID_IDP_RESPONSE : The id_token header says alg ES256, but key \(kid) is RS256.")
        #expect(try verdict(token, provider: "facebook.com")?.hasPrefix("INVALID_IDP_RESPONSE : The id_token is signed with key \(kid) of the fake apple.com provider, not of facebook.com") == true)
        #expect(try verdict(token, nonce: "wrong") == "MISSING_OR_INVALID_NONCE : The apple.com id_token nonce is not the SHA-256 of the raw nonce in the request.")
        #expect(try verdict(token, nonce: SHA256.hexDigest(of: "n"))?.hasPrefix("MISSING_OR_INVALID_NONCE : The request sent the hashed nonce;") == true)
        #expect(try verdict(token, nonce: nil) == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        let noNonce = try Self.mint(emulator, "apple.com", ["email": "v@example.com"])["idToken"]?.stringValue ?? ""
        #expect(try verdict(noNonce) == "MISSING_OR_INVALID_NONCE : The request sent a nonce, but the apple.com id_token carries none.")

        emulator.clock.advance(seconds: 600 + 301)
        #expect(try verdict(token)?.hasPrefix("INVALID_IDP_RESPONSE : The id_token expired at ") == true)
        #expect(try Self.userCount(emulator) == 0)
    }

    @Test func aForeignKeyIsAcceptedInLenientModeOnly() throws {
        let foreignKey = try SigningKey.generateP256()
        let claims: JSONObject = ["iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": "001.foreign.1", "exp": 4_102_444_800]
        let foreign = try CompactJWT.sign(payload: claims, key: foreignKey, keyID: "real-apple-kid")
        let unsigned = CompactJWT.unsigned(payload: claims)

        let lenient = try TestEmulator()
        #expect(try Self.signIn(lenient, postBody: "providerId=apple.com&id_token=\(foreign)")["isNewUser"] == true)
        #expect(lenient.logLines.all.contains { $0.contains("kid real-apple-kid") && $0.contains("lenient") })

        let strict = try TestEmulator(idpTokenMode: .strict)
        let refused = try Self.signIn(strict, postBody: "providerId=apple.com&id_token=\(foreign)")
        #expect(refused.errorMessage == "INVALID_IDP_RESPONSE : The id_token is signed with kid real-apple-kid, which is not a key of the emulator's fake apple.com provider (see /emulator/v1/idp/apple.com/jwks); the emulator runs with --idp-tokens strict.")
        #expect(try Self.signIn(strict, postBody: "providerId=apple.com&id_token=\(unsigned)").errorMessage == "INVALID_IDP_RESPONSE : The id_token is not signed (alg none); the emulator runs with --idp-tokens strict.")
        let json = "{\"sub\":\"1\"}".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try Self.signIn(strict, postBody: "providerId=oidc.x&id_token=\(json)").errorMessage == "INVALID_IDP_RESPONSE : The id_token is plain JSON, not a signed JWT; the emulator runs with --idp-tokens strict.")
        #expect(try Self.userCount(strict) == 0)
        // Our own tokens still pass in strict mode.
        let minted = try Self.mint(strict, "apple.com", ["email": "s@example.com"])
        #expect(try Self.signIn(strict, postBody: minted["postBody"]?.stringValue ?? "")["isNewUser"] == true)
    }

    @Test func theAudienceIsCheckedWhereTheProjectConfiguredAClientId() throws {
        let emulator = try TestEmulator()
        let path = "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/defaultSupportedIdpConfigs"
        let owner = [("Authorization", "Bearer owner")]
        let created = try emulator.send(
            "POST", "\(path)?idpId=apple.com",
            json: ["clientId": "com.example.web", "appleSignInConfig": ["bundleIds": ["com.example.app"]]], headers: owner)
        #expect(created["name"] == .string("projects/\(TestEmulator.project)/defaultSupportedIdpConfigs/apple.com"))
        #expect(created["enabled"] == true)
        #expect(try emulator.send("POST", "\(path)?idpId=apple.com", json: [:], headers: owner).status == 400)

        let right = try Self.mint(emulator, "apple.com", ["email": "a@example.com"])
        #expect(try Self.signIn(emulator, postBody: right["postBody"]?.stringValue ?? "").status == 200)
        let wrong = try Self.mint(emulator, "apple.com", ["email": "b@example.com", "audience": "com.evil.app"])
        #expect(try Self.signIn(emulator, postBody: wrong["postBody"]?.stringValue ?? "").errorMessage == "INVALID_IDP_RESPONSE : The id_token aud is com.evil.app; this project's apple.com provider accepts com.example.web, com.example.app.")

        let patched = try emulator.send("PATCH", "\(path)/apple.com?updateMask=enabled", json: ["enabled": false], headers: owner)
        #expect(patched["enabled"] == false)
        #expect(patched["clientId"] == "com.example.web")
        #expect(try Self.signIn(emulator, postBody: right["postBody"]?.stringValue ?? "").errorMessage == "OPERATION_NOT_ALLOWED : The identity provider configuration is disabled.")
        #expect(try emulator.send("GET", path, headers: owner)["defaultSupportedIdpConfigs"]?.arrayValue?.count == 1)
        #expect(try emulator.send("DELETE", "\(path)/apple.com", headers: owner).status == 200)
        #expect(try emulator.send("GET", "\(path)/apple.com", headers: owner).status == 404)
        #expect(try Self.signIn(emulator, postBody: wrong["postBody"]?.stringValue ?? "").status == 200)
    }

    @Test func rotatedKeysStayPublishedAndOldTokensStillVerify() throws {
        let emulator = try TestEmulator()
        let before = try Self.mint(emulator, "google.com", ["email": "g@example.com"])
        let oldKid = try CompactJWT(parsing: before["idToken"]?.stringValue ?? "").keyID
        let rotated = try emulator.send("POST", "/emulator/v1/idp/google.com/keys:rotate", json: [:])
        let newKid = try #require(rotated["kid"]?.stringValue)
        #expect(newKid != oldKid)
        let after = try Self.mint(emulator, "google.com", ["email": "g@example.com"])
        #expect(try CompactJWT(parsing: after["idToken"]?.stringValue ?? "").keyID == newKid)
        let kids = try emulator.send("GET", "/emulator/v1/idp/google.com/jwks")["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue }
        #expect(Set(kids ?? []) == Set([oldKid, newKid].compactMap { $0 }))
        #expect(try Self.signIn(emulator, postBody: before["postBody"]?.stringValue ?? "").status == 200)
        #expect(try Self.signIn(emulator, postBody: after["postBody"]?.stringValue ?? "").status == 200)
    }

    @Test func keysAndTheClockSurviveARestartWithData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("auth.sqlite").path
        let postBody: String
        do {
            let first = try TestEmulator(dataFile: file)
            postBody = try Self.mint(first, "apple.com", ["email": "p@example.com", "expiresInSeconds": 7200])["postBody"]?.stringValue ?? ""
            let advanced = try first.send("POST", "/emulator/v1/clock:advance", json: ["seconds": 3600])
            #expect(advanced["now"] == .string(TestEmulator.start.adding(seconds: 3600).rfc3339))
        }
        let second = try TestEmulator(dataFile: file)
        #expect(try second.send("GET", "/emulator/v1/clock")["now"] == .string(TestEmulator.start.adding(seconds: 3600).rfc3339))
        #expect(try Self.signIn(second, postBody: postBody)["isNewUser"] == true)
        #expect(try second.send("POST", "/emulator/v1/clock:advance", json: ["seconds": -1]).status == 400)
    }

    @Test func theClockSetsToAMomentNotBeforeRealTimeAndResetsToRealTime() throws {
        let emulator = try TestEmulator()
        let target = TestEmulator.start.adding(seconds: 86_400)
        let set = try emulator.send("POST", "/emulator/v1/clock:set", json: ["time": .string(target.rfc3339)])
        #expect(set["now"] == .string(target.rfc3339))
        #expect(set["offsetSeconds"]?.doubleValue == 86_400)
        // The real time moves on; the offset stays, so the emulator time moves with it.
        emulator.clock.advance(seconds: 10)
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == .string(target.adding(seconds: 10).rfc3339))
        let zoned = try emulator.send("POST", "/emulator/v1/clock:set", json: ["time": "2023-11-15T09:13:30.5+09:00"])
        #expect(zoned["now"] == "2023-11-15T00:13:30.500Z")
        let earlier = try emulator.send("POST", "/emulator/v1/clock:set", json: ["time": .string(TestEmulator.start.rfc3339)])
        #expect(earlier.status == 400)
        #expect(earlier["error"]?["message"]?.stringValue?.hasPrefix("INVALID_ARGUMENT : time ") == true)
        let reset = try emulator.send("POST", "/emulator/v1/clock:reset", json: [:])
        #expect(reset["now"] == .string(TestEmulator.start.adding(seconds: 10).rfc3339))
        #expect(emulator.emulator.environment.clock.offset == 0)
    }

    @Test func everyClockChangeIsSavedBeforeItApplies() throws {
        let saved = Locked<[Int64]>([])
        let real = ManualClock(TestEmulator.start)
        let clock = EmulatorClock(source: real, saveOffset: { offset in saved.withLock { $0.append(offset) } })
        try clock.set(to: TestEmulator.start.adding(seconds: 60))
        try clock.reset()
        #expect(throws: AuthError.self) { try clock.set(to: TestEmulator.start.adding(seconds: -1)) }
        struct DiskFull: Error {}
        let failing = EmulatorClock(source: real, saveOffset: { _ in throw DiskFull() })
        #expect(throws: DiskFull.self) { try failing.reset() }
        #expect(throws: DiskFull.self) { try failing.set(to: TestEmulator.start.adding(seconds: 5)) }
        #expect(failing.offset == 0)
        #expect(saved.withLock { $0 } == [60_000, 0])
    }

    // MARK: Accounts

    @Test func unverifiedAppleEmailAsksForConfirmationAndAVerifiedOneTakesOver() throws {
        let emulator = try TestEmulator()
        let password = try emulator.signUp("owner@example.com")
        let unverified = try Self.mint(emulator, "apple.com", ["email": "owner@example.com", "emailVerified": false])
        let confirm = try Self.signIn(emulator, postBody: unverified["postBody"]?.stringValue ?? "")
        #expect(confirm["needConfirmation"] == true)
        #expect(confirm["localId"] == password["localId"])
        #expect(confirm["verifiedProvider"] == [])
        #expect(confirm["idToken"] == nil)

        // Verified: the provider proves the email, so the unverified password goes.
        emulator.clock.advance(seconds: 5)
        let verified = try Self.mint(emulator, "apple.com", ["email": "owner@example.com", "sub": "001.other.1"])
        let takeover = try Self.signIn(emulator, postBody: verified["postBody"]?.stringValue ?? "")
        #expect(takeover["localId"] == password["localId"])
        #expect(takeover["isNewUser"] == nil)
        let user = try emulator.admin("accounts:lookup", ["localId": [password["localId"]!]])["users"]?.arrayValue?.first
        #expect(user?["passwordHash"] == nil)
        #expect(user?["emailVerified"] == true)
        #expect(try emulator.client("lookup", ["idToken": password["idToken"]!]).errorMessage == "TOKEN_EXPIRED")
    }

    @Test func linkingAnAlreadyLinkedIdentityCarriesTheCredentialBack() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "facebook.com", ["email": "f@example.com", "name": "Fay"])
        let facebookUser = try Self.signIn(emulator, postBody: "providerId=facebook.com&access_token=\(minted["accessToken"]?.stringValue ?? "")")
        #expect(facebookUser["isNewUser"] == true)
        #expect(facebookUser["displayName"] == "Fay")
        let other = try emulator.signUp("other@example.com")
        let linked = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "", idToken: other["idToken"]?.stringValue)
        #expect(linked.status == 200)
        #expect(linked["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(linked["oauthIdToken"] == minted["idToken"])
        #expect(linked["idToken"] == nil)
        #expect(linked["localId"] == nil)
        let plain = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "", idToken: other["idToken"]?.stringValue, returnIdpCredential: false)
        #expect(plain.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        // Admin linkProviderUserInfo meets the same rule in the database.
        let admin = try emulator.admin("accounts:update", [
            "localId": other["localId"]!, "linkProviderUserInfo": ["providerId": "facebook.com", "rawId": minted["sub"]!],
        ])
        #expect(admin.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
    }

    @Test func appleNameComesOnceAndReauthenticationCreatesNobody() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "n@example.com", "nonce": "x"])
        let postBody = minted["postBody"]?.stringValue ?? ""
        let reauth = try Self.signIn(emulator, postBody: postBody, autoCreate: false)
        #expect(reauth.errorMessage == "USER_NOT_FOUND")
        #expect(try Self.userCount(emulator) == 0)
        let first = try Self.signIn(emulator, postBody: postBody + "&user={\"name\":{\"firstName\":\"Ada\",\"lastName\":\"Lovelace\"}}")
        #expect(first["displayName"] == "Ada Lovelace")
        #expect(first["firstName"] == "Ada")
        let second = try Self.signIn(emulator, postBody: postBody + "&user={\"name\":{\"firstName\":\"Bob\"}}", autoCreate: false)
        #expect(second["localId"] == first["localId"])
        let user = try emulator.client("lookup", ["idToken": second["idToken"]!])["users"]?.arrayValue?.first
        #expect(user?["displayName"] == "Ada Lovelace")
    }

    @Test func aDisabledUserIsRefusedBeforeAnythingChanges() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "yahoo.com", ["email": "y@example.com", "name": "Old"])
        let user = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        _ = try emulator.admin("accounts:update", ["localId": user["localId"]!, "disableUser": true])
        let renamed = try Self.mint(emulator, "yahoo.com", ["email": "y@example.com", "name": "New"])
        #expect(try Self.signIn(emulator, postBody: renamed["postBody"]?.stringValue ?? "").errorMessage == "USER_DISABLED")
        let stored = try emulator.admin("accounts:lookup", ["localId": [user["localId"]!]])["users"]?.arrayValue?.first
        #expect(stored?["providerUserInfo"]?.arrayValue?.first?["displayName"] == "Old")
    }

    @Test func requestErrorsFollowTheReference() throws {
        let emulator = try TestEmulator()
        #expect(try emulator.client("signInWithIdp", ["postBody": "providerId=x"]).errorMessage == "MISSING_REQUEST_URI")
        #expect(try emulator.client("signInWithIdp", ["requestUri": "not a uri"]).errorMessage == "INVALID_REQUEST_URI")
        #expect(try emulator.client("signInWithIdp", ["requestUri": "http://localhost?a=1"]).errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost/?a=1")
        let noSub = "%7B%22email%22%3A%22a%40b.c%22%7D"
        #expect(try Self.signIn(emulator, postBody: "providerId=oidc.x&id_token=\(noSub)").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields.") == true)
        #expect(try Self.signIn(emulator, postBody: "providerId=oidc.x&id_token=garbage").errorMessage == "INVALID_IDP_RESPONSE : Unable to parse id_token: garbage ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
        #expect(try Self.signIn(emulator, postBody: "providerId=facebook.com&access_token=EAAGunknown").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : The facebook.com access_token is not one the emulator's fake facebook.com provider issued") == true)
        let none = try Self.signIn(emulator, postBody: "providerId=facebook.com")
        #expect(none.status == 501)
        // Parameters from the request URI's query and fragment count too (the fragment wins).
        let claims = "%7B%22sub%22%3A%22frag%22%7D"
        let fromUri = try emulator.client("signInWithIdp", [
            "requestUri": .string("http://localhost/cb?providerId=github.com&id_token=x#id_token=\(claims)"),
            "returnSecureToken": true,
        ])
        #expect(fromUri["federatedId"] == "frag")
        #expect(fromUri["providerId"] == "github.com")
    }

    // MARK: Apple token revocation

    @Test func appleRevocationNeedsTheUsersOwnFreshCode() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "r@example.com"])
        let user = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        let idToken = try #require(user["idToken"]?.stringValue)
        let stranger = try Self.mint(emulator, "apple.com", ["email": "someone-else@example.com"])
        func revoke(_ code: String?, tokenType: JSONValue = "3", idToken: String? = idToken) throws -> TestEmulator.Reply {
            var body: JSONObject = ["providerId": "apple.com", "tokenType": tokenType]
            body.setIfPresent("token", code.map { .string($0) })
            body.setIfPresent("idToken", idToken.map { .string($0) })
            return try emulator.send("POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=k", json: .object(body))
        }
        #expect(try revoke(stranger["authorizationCode"]?.stringValue).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Apple refused the authorization code (invalid_grant): the authorization code was issued to another Apple ID") == true)
        #expect(try revoke(minted["authorizationCode"]?.stringValue, idToken: nil).errorMessage == "MISSING_ID_TOKEN")
        #expect(try revoke(minted["authorizationCode"]?.stringValue, tokenType: "1").status == 400)
        let ok = try revoke(minted["authorizationCode"]?.stringValue, tokenType: 3)
        #expect(ok.status == 200)
        #expect(ok.json == [:])
        #expect(try revoke(minted["authorizationCode"]?.stringValue).errorMessage?.contains("single-use") == true)
        let revocations = try emulator.send("GET", "/emulator/v1/idp/apple.com/revocations")["revocations"]?.arrayValue
        #expect(revocations == [[
            "sub": minted["sub"]!, "authorizationCode": minted["authorizationCode"]!, "tokenType": "CODE",
            "projectId": .string(TestEmulator.project), "revokedAt": .string(TestEmulator.start.rfc3339),
        ]])
        let later = try Self.mint(emulator, "apple.com", ["email": "r@example.com"])
        emulator.clock.advance(seconds: 301)
        #expect(try revoke(later["authorizationCode"]?.stringValue).errorMessage?.contains("expired") == true)
    }

    /// The JS SDK's `revokeAccessToken` sends Apple's OAuth access token as ACCESS_TOKEN (2).
    @Test func appleRevocationTakesTheUsersOwnAccessTokenToo() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "apple.com", ["email": "web@example.com", "expiresInSeconds": 600])
        let user = try Self.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "")
        let idToken = try #require(user["idToken"]?.stringValue)
        let stranger = try Self.mint(emulator, "apple.com", ["email": "another@example.com"])
        let google = try Self.mint(emulator, "google.com", ["email": "web@example.com"])
        func revoke(_ token: JSONValue?, tokenType: JSONValue = "ACCESS_TOKEN") throws -> TestEmulator.Reply {
            var body: JSONObject = ["providerId": "apple.com", "tokenType": tokenType, "idToken": .string(idToken)]
            body.setIfPresent("token", token)
            return try emulator.send("POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=k", json: .object(body))
        }
        #expect(try revoke(stranger["accessToken"]).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Apple refused the access token (invalid_grant): the access token was issued to another Apple ID") == true)
        #expect(try revoke(google["accessToken"]).errorMessage?.hasSuffix("the fake Apple provider never issued this access token.") == true)
        // An access token is not an authorization code, nor the other way round.
        #expect(try revoke(minted["accessToken"], tokenType: "CODE").errorMessage?.contains("never issued this authorization code") == true)
        #expect(try revoke(minted["authorizationCode"]).errorMessage?.contains("never issued this access token") == true)
        #expect(try revoke(minted["accessToken"], tokenType: "REFRESH_TOKEN").errorMessage?.hasPrefix("INVALID_ARGUMENT : tokenType must be CODE (3)") == true)
        #expect(try revoke(minted["accessToken"], tokenType: 2).json == [:])
        #expect(try revoke(minted["accessToken"]).errorMessage?.contains("revoked already") == true)
        let revocations = try emulator.send("GET", "/emulator/v1/idp/apple.com/revocations")["revocations"]?.arrayValue
        #expect(revocations == [[
            "sub": minted["sub"]!, "accessToken": minted["accessToken"]!, "tokenType": "ACCESS_TOKEN",
            "projectId": .string(TestEmulator.project), "revokedAt": .string(TestEmulator.start.rfc3339),
        ]])
        let later = try Self.mint(emulator, "apple.com", ["email": "web@example.com", "expiresInSeconds": 60])
        emulator.clock.advance(seconds: 61)
        #expect(try revoke(later["accessToken"]).errorMessage?.contains("the access token expired at") == true)
    }

    // MARK: Facebook Graph

    @Test func theFakeGraphResolvesClassicTokens() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, "facebook.com", ["email": "g@example.com", "name": "Gus", "picture": "https://p.example/g.png"])
        let token = try #require(minted["accessToken"]?.stringValue)
        // A Bearer header must not make an open route answer 401.
        let me = try emulator.send(
            "GET", "/emulator/v1/idp/facebook.com/me?access_token=\(token)&fields=id,name,email,picture",
            headers: [("Authorization", "Bearer \(token)")])
        #expect(me.json == [
            "id": minted["sub"]!, "name": "Gus", "email": "g@example.com",
            "picture": ["data": ["url": "https://p.example/g.png", "is_silhouette": false]],
        ])
        let unknown = try emulator.send("GET", "/emulator/v1/idp/facebook.com/me?access_token=nope")
        #expect(unknown.status == 400)
        #expect(unknown["error"]?["type"] == "OAuthException")
        #expect(unknown["error"]?["code"] == 190)
    }
}

/// The lenient `postBody` reader: the Apple SDK sends values raw, other SDKs percent-encoded.
@Suite struct IdPCredentialParametersTests {
    @Test func rawAndEncodedValuesBothRead() {
        let raw = IdPCredentialParameters.lenientPairs("providerId=apple.com&user={\"name\":{\"firstName\":\"A+B\"}}&nonce=a.b-c_d")
        #expect(raw.map(\.1) == ["apple.com", "{\"name\":{\"firstName\":\"A+B\"}}", "a.b-c_d"])
        let encoded = IdPCredentialParameters.lenientPairs("id_token=%7B%22sub%22%3A%221%22%7D&bad=100%")
        #expect(encoded.map(\.1) == ["{\"sub\":\"1\"}", "100%"])
    }

    /// ASCII request URIs are read by bytes and others by Characters: both must split and check alike.
    @Test func requestUrisSplitAndNormaliseAlikeWithOrWithoutOtherCharacters() throws {
        func normalized(_ requestUri: String, _ postBody: String? = nil) throws -> String {
            try IdPCredentialParameters(requestUri: requestUri, postBody: postBody).normalizedRequestUri
        }
        #expect(try normalized("http://localhost", "providerId=apple.com") == "http://localhost/?providerId=apple.com")
        #expect(try normalized("http://localhost/cb?a=1#b=2&a=3", "c=4") == "http://localhost/cb?a=3&c=4&b=2")
        #expect(try normalized("app-1-2://firebaseauth/link?x=1") == "app-1-2://firebaseauth/link?x=1")
        #expect(try normalized("http://a:8080/x://y") == "http://a:8080/x://y")
        #expect(try normalized("urn:a://b") == "urn:a://b/")
        #expect(try normalized("http:x#y") == "http:x?y=")
        #expect(try normalized("http://exämple.com#frag=ü") == "http://exämple.com/?frag=%C3%BC")
        #expect(try normalized("http://exämple.com/p?q=ü") == "http://exämple.com/p?q=%C3%BC")

        func refusal(_ requestUri: String) -> String? {
            do {
                _ = try IdPCredentialParameters(requestUri: requestUri, postBody: nil)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal("") == "MISSING_REQUEST_URI")
        for invalid in ["localhost", "://x", "1http://x", "a#b://c", "é://x", "ht tp://x", "http\r\n://x", "httpé://x"] {
            #expect(refusal(invalid) == "INVALID_REQUEST_URI", "\(invalid)")
        }
        for valid in ["http://x", "a.b+c-d://x", "Z:", "chrome-extension://x"] {
            #expect(refusal(valid) == nil, "\(valid)")
        }
    }
}
