@testable import AuthEmulator
import Foundation
import HTTPTestSupport
import JOSE
import JSON
import Testing

/// Sign in with Game Center (issue 30): the fake Game Center's certificates and mint, and
/// `signInWithGameCenter` replayed from the Apple SDK's request bodies (`fixtures/apple-sdk`).
@Suite struct GameCenterTests {
    typealias Fixture = AppleSDKFixtureTests
    typealias Federation = AppleSDKFederationFixtureTests
    static let bundleId = "com.example.game"

    /// Mints a Game Center identity for `bundleId`.
    static func mint(_ emulator: TestEmulator, _ body: JSONObject = [:]) throws -> TestEmulator.Reply {
        var body = body
        if body["bundleId"] == nil { body["bundleId"] = .string(bundleId) }
        return try Federation.mint("gc.apple.com", on: emulator, .object(body))
    }

    /// The fixture's placeholders filled from a mint answer (and the Firebase ID token to link).
    static func values(_ minted: TestEmulator.Reply, idToken: String? = nil) -> [String: String] {
        var values: [String: String] = ["bundleId": bundleId]
        for key in ["publicKeyUrl", "signature", "salt", "teamPlayerId", "gamePlayerId", "playerId", "displayName"] {
            values[key] = minted[key]?.stringValue
        }
        values["timestamp"] = minted["timestamp"].map(\.compactString)
        values["idToken"] = idToken
        return values
    }

    /// The request body as the mint answered it, sent as a client would, with the bundle id header.
    static func signIn(
        _ emulator: TestEmulator, _ body: JSONObject, bundleId: String? = GameCenterTests.bundleId
    ) throws -> TestEmulator.Reply {
        try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter?key=test-api-key", json: .object(body),
            headers: bundleId.map { [("X-Ios-Bundle-Identifier", $0)] } ?? [])
    }

    static func requestBody(_ minted: TestEmulator.Reply) throws -> JSONObject {
        try #require(minted["requestBody"]?.objectValue)
    }

    static func userCount(_ emulator: TestEmulator) throws -> Int {
        try emulator.admin("accounts:query", [:])["userInfo"]?.arrayValue?.count ?? 0
    }

    // MARK: The Apple SDK's flow

    @Test func signsUpSignsInReauthenticatesAndLinksAsTheSDKSendsIt() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, ["teamPlayerId": "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8", "displayName": "Ada"])
        #expect(minted["playerId"] == "")  // GameKit's fetchItems: the legacy id is empty
        #expect(minted["gamePlayerId"]?.stringValue?.hasPrefix("A:_") == true)
        #expect(minted["timestamp"] == .int(TestEmulator.start.millisecondsSinceEpoch))

        let signIn = try Fixture.replay("signInWithGameCenter", on: emulator, Self.values(minted))
        #expect(signIn.status == 200, "\(signIn.json)")
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["expiresIn"] == "3600")  // a string, as the SDK parses it
        #expect(signIn["teamPlayerId"] == "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8")
        #expect(signIn["gamePlayerId"] == minted["gamePlayerId"])
        #expect(signIn["playerId"] == nil)  // the request's was empty
        #expect(signIn["displayName"] == "Ada")
        let localId = try Federation.string(signIn, "localId")
        let idToken = try Federation.string(signIn, "idToken")
        _ = try Federation.string(signIn, "refreshToken")
        let claims = try TokenInspection.decode(idToken).payload
        #expect(claims["firebase"]?["sign_in_provider"] == "gc.apple.com")

        let info = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(info["displayName"] == "Ada")
        #expect(Federation.providerIds(info) == ["gc.apple.com"])
        let link = Federation.provider("gc.apple.com", of: info)
        #expect(link?["rawId"] == "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8")  // teamPlayerId, as production keys on
        #expect(link?["federatedId"] == "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8")

        // Returning, and re-authenticating (the SDK sends the same request): the same user.
        emulator.clock.advance(seconds: 60)
        let again = try Self.mint(emulator, ["teamPlayerId": "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8", "displayName": "Ada"])
        #expect(again["gamePlayerId"] == minted["gamePlayerId"])  // per team player and game
        let returning = try Fixture.replay("signInWithGameCenter", on: emulator, Self.values(again))
        #expect(returning["localId"] == .string(localId))
        #expect(returning["isNewUser"] == false)
        #expect(try Self.userCount(emulator) == 1)

        // Linking: an anonymous user takes a second player; the first player is someone else's.
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let anonymousToken = try Federation.string(anonymous, "idToken")
        let second = try Self.mint(emulator, ["teamPlayerId": "T:_second", "displayName": "Grace"])
        let linked = try Fixture.replay("linkGameCenter", on: emulator, Self.values(second, idToken: anonymousToken))
        #expect(linked.status == 200, "\(linked.json)")
        #expect(linked["localId"] == anonymous["localId"])
        #expect(linked["isNewUser"] == false)
        _ = try Federation.string(linked, "refreshToken")  // the SDK's link path crashes without both tokens
        let linkedInfo = try Federation.onlyUser(
            try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Federation.string(linked, "idToken")]))
        #expect(Federation.provider("gc.apple.com", of: linkedInfo)?["rawId"] == "T:_second")

        let taken = try Self.mint(emulator, ["teamPlayerId": "T:_1f0a2b3c4d5e6f708192a3b4c5d6e7f8"])
        let refused = try Fixture.replay(
            "linkGameCenter", on: emulator, Self.values(taken, idToken: try Federation.string(linked, "idToken")))
        #expect(refused.status == 400)
        #expect(refused.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(try Self.userCount(emulator) == 2)
    }

    @Test func legacyPlayerIdsSignInAndMigrateToTheTeamPlayerId() throws {
        let emulator = try TestEmulator()
        let legacy = try Self.mint(emulator, ["playerId": "G:1234567890", "displayName": "Old"])
        #expect(legacy["teamPlayerId"] == nil)
        #expect(legacy["gamePlayerId"] == nil)
        let signIn = try Fixture.replay("signInWithGameCenterLegacy", on: emulator, Self.values(legacy))
        #expect(signIn.status == 200, "\(signIn.json)")
        #expect(signIn["playerId"] == "G:1234567890")
        let localId = try Federation.string(signIn, "localId")

        // Both ids (production's migration): the user linked by the legacy id now has the team one.
        let both = try Self.mint(emulator, ["playerId": "G:1234567890", "teamPlayerId": "T:_migrated"])
        let migrated = try Self.signIn(emulator, try Self.requestBody(both))
        #expect(migrated["localId"] == .string(localId))
        #expect(migrated["isNewUser"] == false)
        let info = try Federation.onlyUser(try emulator.client("lookup", ["idToken": migrated["idToken"]!]))
        #expect(Federation.provider("gc.apple.com", of: info)?["rawId"] == "T:_migrated")
        let teamOnly = try Self.mint(emulator, ["teamPlayerId": "T:_migrated"])
        #expect(try Self.signIn(emulator, try Self.requestBody(teamOnly))["localId"] == .string(localId))
    }

    // MARK: The certificate

    @Test func theCertificateAtPublicKeyUrlVerifiesTheSignatureAndOutlivesARotation() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, ["teamPlayerId": "T:_cert", "timestamp": 1_700_000_000_123])
        let url = try Federation.string(minted, "publicKeyUrl")
        // On the address the client used (the test client sends `Host: localhost`).
        #expect(url.hasPrefix("http://localhost/emulator/v1/idp/gc.apple.com/public-key/") && url.hasSuffix(".cer"))
        let path = String(url.dropFirst("http://localhost".count))

        let certificate = try Self.fetch(emulator, path)
        #expect(certificate.status == 200)
        #expect(certificate.headers.first { $0.name.lowercased() == "content-type" }?.value == "application/pkix-cert")
        let key = try VerificationKey(certificateDER: certificate.body)
        let payload = GameCenter.signedPayload(
            playerId: "T:_cert", bundleId: Self.bundleId, timestamp: 1_700_000_000_123,
            salt: try #require(Base64URL.decode(try Federation.string(minted, "salt"))))
        // The bytes GameKit signs: the id, the bundle id, the timestamp big-endian, the salt.
        #expect(Array(payload[23..<31]) == [0x00, 0x00, 0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x7B])
        #expect(key.verify(signature: try #require(Base64URL.decode(try Federation.string(minted, "signature"))), over: payload, algorithm: .rs256))
        // The same bytes every time, as Apple's files.
        #expect(try Self.fetch(emulator, path).body == certificate.body)

        let rotated = try emulator.send("POST", "/emulator/v1/idp/gc.apple.com/keys:rotate", json: [:])
        let newKid = try Federation.string(rotated, "kid")
        let next = try Self.mint(emulator, ["teamPlayerId": "T:_cert"])
        #expect(next["publicKeyUrl"]?.stringValue?.hasSuffix("/\(newKid).cer") == true)
        // A signature made before the rotation still verifies: its certificate is still served.
        let before = try Self.signIn(emulator, try Self.requestBody(minted))
        #expect(before.status == 200, "\(before.json)")
        #expect(try Self.signIn(emulator, try Self.requestBody(next))["localId"] == before["localId"])
        #expect(try Self.fetch(emulator, "/emulator/v1/idp/gc.apple.com/public-key/nope.cer").status == 404)
    }
}

extension GameCenterTests {
    // MARK: Refusals: production's code, the field named, nothing written

    @Test func everyMalformedFieldIsRefusedByNameAndWritesNothing() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, ["teamPlayerId": "T:_refusals"])
        let good = try Self.requestBody(minted)
        let signature = try Federation.string(minted, "signature")
        func changed(_ key: String, _ value: JSONValue?) -> JSONObject {
            var body = good
            body[key] = value  // nil removes it
            return body
        }
        let flipped = String(signature.prefix(10)) + (signature.dropFirst(10).first == "A" ? "B" : "A") + signature.dropFirst(11)
        let cases: [(JSONObject, String)] = [
            (changed("signature", "not base64!"), "INVALID_IDP_RESPONSE : signature is not base64 or base64url: not base64!"),
            (changed("signature", nil), "INVALID_IDP_RESPONSE : signature is required."),
            (changed("signature", .string(flipped)), "INVALID_IDP_RESPONSE : Invalid signature."),
            (changed("salt", "AA"), "INVALID_IDP_RESPONSE : salt must be 4 to 32 bytes (GameKit's are 4), not 1."),
            (changed("salt", "%%%"), "INVALID_IDP_RESPONSE : salt is not base64 or base64url: %%%"),
            (changed("timestamp", "soon"), "Invalid JSON payload received. /timestamp must be integer"),
            (changed("timestamp", nil), "INVALID_IDP_RESPONSE : timestamp is required"),
            (changed("timestamp", -5), "INVALID_IDP_RESPONSE : timestamp must be positive, not -5."),
            (changed("teamPlayerId", "T:_someone-else"), "INVALID_IDP_RESPONSE : Invalid signature."),
            (changed("teamPlayerId", nil), "INVALID_IDP_RESPONSE : teamPlayerId (or the legacy playerId) is required"),  // the legacy one is empty
            (changed("publicKeyUrl", "https://static.gc.apple.com/public-key/gc-prod-10.cer"),
             "INVALID_IDP_RESPONSE : publicKeyUrl https://static.gc.apple.com/public-key/gc-prod-10.cer is not a certificate this emulator serves"),
            (changed("publicKeyUrl", "http://attacker.example/emulator/v1/idp/gc.apple.com/public-key/x.cer"),
             "INVALID_IDP_RESPONSE : publicKeyUrl http://attacker.example/"),
            (changed("publicKeyUrl", "http://127.0.0.1:1/emulator/v1/idp/gc.apple.com/public-key/unknown.cer"),
             "INVALID_IDP_RESPONSE : publicKeyUrl names no certificate of the fake Game Center (no key unknown)."),
            (changed("publicKeyUrl", nil), "INVALID_IDP_RESPONSE : publicKeyUrl is required"),
        ]
        for (body, message) in cases {
            let reply = try Self.signIn(emulator, body)
            #expect(reply.status == 400, "\(message)")
            #expect(reply.errorMessage?.hasPrefix(message) == true, "expected \(message), got \(reply.errorMessage ?? "nothing")")
        }
        var noIds = changed("teamPlayerId", nil)
        noIds["playerId"] = .null  // the SDK's nil player id is JSON null
        #expect(try Self.signIn(emulator, noIds).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : teamPlayerId (or the legacy playerId) is required") == true)
        // Signed for another app.
        let otherApp = try Self.signIn(emulator, good, bundleId: "com.example.other")
        #expect(otherApp.errorMessage?.contains("for bundle id com.example.other (from X-Ios-Bundle-Identifier)") == true)
        #expect(try Self.userCount(emulator) == 0)
        #expect(try Self.signIn(emulator, good).status == 200)  // and the untouched request still works
    }

    @Test func aSignatureByAnotherKeyOrTooOldIsRefused() throws {
        let emulator = try TestEmulator()
        let minted = try Self.mint(emulator, ["teamPlayerId": "T:_keys"])
        let kid = try #require(minted["publicKeyUrl"]?.stringValue?.split(separator: "/").last?.dropLast(4))
        let newKid = try Federation.string(try emulator.send("POST", "/emulator/v1/idp/gc.apple.com/keys:rotate", json: [:]), "kid")
        var body = try Self.requestBody(minted)
        body["publicKeyUrl"] = .string(try Federation.string(minted, "publicKeyUrl").replacingOccurrences(of: String(kid), with: newKid))
        #expect(try Self.signIn(emulator, body).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Invalid signature.") == true)
        // An Apple key of ours, but of another provider, is no Game Center certificate.
        let apple = try Federation.mint("apple.com", on: emulator, ["email": "a@example.com"])
        let appleKid = try #require(try TokenInspection.decode(apple["idToken"]?.stringValue).header["kid"]?.stringValue)
        body["publicKeyUrl"] = .string(try Federation.string(minted, "publicKeyUrl").replacingOccurrences(of: String(kid), with: appleKid))
        #expect(try Self.signIn(emulator, body).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : publicKeyUrl names no certificate") == true)

        // Five minutes by the emulator clock, then stale; a timestamp from the future is refused too.
        emulator.clock.advance(seconds: 301)
        let stale = try Self.signIn(emulator, try Self.requestBody(minted))
        #expect(stale.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : timestamp 1700000000000 (2023-11-14T22:13:20.000Z) is 301 s old") == true, "\(stale.json)")
        let future = try Self.mint(emulator, ["teamPlayerId": "T:_keys", "timestamp": "2031-01-01T00:00:00Z"])
        #expect(try Self.signIn(emulator, try Self.requestBody(future)).errorMessage?.contains("is in the future") == true)
        let old = try Self.mint(emulator, ["teamPlayerId": "T:_keys", "timestamp": 1_600_000_000_000])
        #expect(try Self.signIn(emulator, try Self.requestBody(old)).errorMessage?.contains("s old") == true)
        #expect(try Self.userCount(emulator) == 0)
        let fresh = try Self.mint(emulator, ["teamPlayerId": "T:_keys"])
        #expect(try Self.signIn(emulator, try Self.requestBody(fresh)).status == 200)
    }

    @Test func theBundleIdMustBeOneOfTheProjectsWhenItConfiguredSome() throws {
        let emulator = try TestEmulator()
        // No header and no configured apps: the mint's default bundle id.
        let byDefault = try Federation.mint("gc.apple.com", on: emulator, ["teamPlayerId": "T:_default"])
        #expect(byDefault["bundleId"] == "com.example.app")
        #expect(try Self.signIn(emulator, try Self.requestBody(byDefault), bundleId: nil).status == 200)
        let mine = try Self.mint(emulator, ["teamPlayerId": "T:_mine"])
        let unnamed = try Self.signIn(emulator, try Self.requestBody(mine), bundleId: nil)
        #expect(unnamed.errorMessage?.contains("for bundle id com.example.app (no X-Ios-Bundle-Identifier header was sent)") == true)

        let path = "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/defaultSupportedIdpConfigs?idpId=gc.apple.com"
        let created = try emulator.send(
            "POST", path, json: ["enabled": true, "appleSignInConfig": ["bundleIds": [.string(Self.bundleId), "com.example.lite"]]],
            headers: [("Authorization", "Bearer owner")])
        #expect(created.status == 200)
        #expect(try Self.signIn(emulator, try Self.requestBody(mine), bundleId: nil).status == 200)  // one of the configured
        let stranger = try Self.mint(emulator, ["teamPlayerId": "T:_mine", "bundleId": "com.example.stranger"])
        let refused = try Self.signIn(emulator, try Self.requestBody(stranger), bundleId: "com.example.stranger")
        #expect(refused.errorMessage == "INVALID_IDP_RESPONSE : The bundle id com.example.stranger (X-Ios-Bundle-Identifier) is not one of the project's Game Center apps: com.example.game, com.example.lite.")

        let disabled = try emulator.send(
            "PATCH", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/defaultSupportedIdpConfigs/gc.apple.com?updateMask=enabled",
            json: ["enabled": false], headers: [("Authorization", "Bearer owner")])
        #expect(disabled.status == 200)
        let off = try Self.signIn(emulator, try Self.requestBody(try Self.mint(emulator, ["teamPlayerId": "T:_mine"])))
        #expect(off.errorMessage == "OPERATION_NOT_ALLOWED : The identity provider configuration is disabled.")
    }

    @Test func aTenantsUserIsTheTenantsAndDisabledUsersAreRefused() throws {
        let emulator = try TestEmulator()
        let tenant = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants", json: ["displayName": "games"],
            headers: [("Authorization", "Bearer owner")])
        let tenantId = try #require(tenant["name"]?.stringValue?.split(separator: "/").last.map(String.init))
        var body = try Self.requestBody(try Self.mint(emulator, ["teamPlayerId": "T:_tenant"]))
        body["tenantId"] = .string(tenantId)
        let signIn = try Self.signIn(emulator, body)
        #expect(signIn.status == 200, "\(signIn.json)")
        #expect(try TokenInspection.decode(signIn["idToken"]?.stringValue).payload["firebase"]?["tenant"] == .string(tenantId))
        #expect(try Self.userCount(emulator) == 0)  // not the project's
        // The same player in the project is another user.
        let project = try Self.signIn(emulator, try Self.requestBody(try Self.mint(emulator, ["teamPlayerId": "T:_tenant"])))
        #expect(project["isNewUser"] == true)

        let localId = try Federation.string(project, "localId")
        #expect(try emulator.admin("accounts:update", ["localId": .string(localId), "disableUser": true]).status == 200)
        let disabled = try Self.signIn(emulator, try Self.requestBody(try Self.mint(emulator, ["teamPlayerId": "T:_tenant"])))
        #expect(disabled.errorMessage == "USER_DISABLED")
    }

    @Test func theMintRefusesWhatItDoesNotKnow() throws {
        let emulator = try TestEmulator()
        let unknown = try emulator.send("POST", "/emulator/v1/idp/gc.apple.com/tokens", json: ["teamPlayerID": "T:_x"])
        #expect(unknown.status == 400)
        #expect(unknown.errorMessage?.hasPrefix("INVALID_ARGUMENT : unknown field \"teamPlayerID\"") == true)
        let badTime = try emulator.send("POST", "/emulator/v1/idp/gc.apple.com/tokens", json: ["timestamp": "yesterday"])
        #expect(badTime.errorMessage?.hasPrefix("INVALID_ARGUMENT : timestamp must be milliseconds since the epoch") == true)
        let command = try CommandLineOptions.parse(["mint", "gc.apple.com", "--team-player-id", "T:_cli", "--bundle-id", "com.x", "--timestamp", "1700000000000"])
        guard case .mint(let mint) = command else { Issue.record("not a mint command"); return }
        #expect(mint.jsonBody == #"{"bundleId":"com.x","teamPlayerId":"T:_cli","timestamp":"1700000000000"}"#)
    }

}

extension GameCenterTests {
    static func fetch(_ emulator: TestEmulator, _ path: String) throws -> (status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        let response = try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", path, headers: [], body: nil)
        return (response.status, response.headers, response.body)
    }
}
