import Foundation
import JSON
import Testing

/// Replays the Apple SDK's own request bodies (`fixtures/apple-sdk`) through the legacy v3 paths,
/// in the order an app makes them, and checks what the SDK reads back.
@Suite struct AppleSDKFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../fixtures/apple-sdk").standardizedFileURL

    /// Sends fixture `name` with `$placeholders` replaced by `values`.
    static func replay(_ name: String, on emulator: TestEmulator, _ values: [String: String] = [:]) throws -> TestEmulator.Reply {
        var text = try String(contentsOf: fixtures.appendingPathComponent("\(name).json"), encoding: .utf8)
        for (key, value) in values { text = text.replacingOccurrences(of: "$\(key)", with: value) }
        let fixture = try JSONValue(parsing: text)
        let path = try #require(fixture["path"]?.stringValue)
        let body = try #require(fixture["body"])
        // Headers the fixture names besides the one every call carries (Game Center's bundle id).
        let extra = (fixture["headers"]?.objectValue?.members ?? []).compactMap { member in member.value.stringValue.map { (member.key, $0) } }
        return try emulator.send(
            "POST", path, json: body, headers: [("X-Client-Version", "iOS/FirebaseSDK/12.19.0/FirebaseCore-iOS")] + extra)
    }

    @Test func anonymousUserLinksAPasswordUpdatesAndDeletes() throws {
        let emulator = try TestEmulator()
        let anonymous = try Self.replay("signInAnonymously", on: emulator)
        #expect(anonymous["expiresIn"] == "3600")
        let localId = try #require(anonymous["localId"]?.stringValue)

        let linked = try Self.replay("linkEmailPassword", on: emulator, ["idToken": anonymous["idToken"]!.stringValue!])
        // The SDK crashes on a link answer without both tokens.
        #expect(linked["idToken"]?.stringValue?.isEmpty == false)
        #expect(linked["refreshToken"]?.stringValue?.isEmpty == false)
        let idToken = linked["idToken"]!.stringValue!

        let info = try Self.replay("getAccountInfo", on: emulator, ["idToken": idToken])
        let users = try #require(info["users"]?.arrayValue)
        #expect(users.count == 1)  // exactly one, or the SDK reports an internal error
        #expect(users[0]["localId"] == .string(localId))
        #expect(users[0]["passwordHash"]?.stringValue?.isEmpty == false)  // the SDK's "has a password" signal
        #expect(users[0]["createdAt"]?.stringValue.flatMap(Int64.init) == TestEmulator.start.millisecondsSinceEpoch)
        #expect(users[0]["providerUserInfo"]?.arrayValue?.allSatisfy { $0["providerId"] != nil } == true)

        emulator.clock.advance(seconds: 10)
        let signIn = try Self.replay("verifyPassword", on: emulator)
        #expect(signIn["localId"] == .string(localId))
        #expect(try Self.replay("fetchSignInMethods", on: emulator)["signinMethods"] == ["password"])

        let profile = try Self.replay("updateProfile", on: emulator, ["idToken": signIn["idToken"]!.stringValue!])
        #expect(profile["displayName"] == "Apple User")
        #expect(profile["idToken"] == nil)  // a profile change keeps the tokens

        emulator.clock.advance(seconds: 10)
        let password = try Self.replay("updatePassword", on: emulator, ["idToken": signIn["idToken"]!.stringValue!])
        let newIdToken = try #require(password["idToken"]?.stringValue)
        let newRefreshToken = try #require(password["refreshToken"]?.stringValue)
        // The token from before the password change is revoked; its refresh token too.
        #expect(try Self.replay("getAccountInfo", on: emulator, ["idToken": idToken]).errorMessage == "TOKEN_EXPIRED")
        #expect(try Self.replay("refreshToken", on: emulator, ["refreshToken": signIn["refreshToken"]!.stringValue!]).errorMessage == "TOKEN_EXPIRED")

        let refreshed = try Self.replay("refreshToken", on: emulator, ["refreshToken": newRefreshToken])
        #expect(refreshed["access_token"]?.stringValue?.isEmpty == false)  // the SDK's new ID token
        #expect(refreshed["expires_in"] == "3600")

        let deleted = try Self.replay("deleteAccount", on: emulator, ["idToken": newIdToken, "localId": localId])
        #expect(deleted.status == 200)
        #expect(try Self.replay("getAccountInfo", on: emulator, ["idToken": newIdToken]).errorMessage == "USER_NOT_FOUND")
    }

    @Test func customTokenSignIn() throws {
        let emulator = try TestEmulator()
        let reply = try Self.replay("signInWithCustomToken", on: emulator)
        #expect(reply["isNewUser"] == true)
        #expect(reply["expiresIn"] == "3600")
    }
}
