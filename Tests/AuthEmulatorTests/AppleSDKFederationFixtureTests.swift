import Foundation
import HTTPTestSupport
import JOSE
import JSON
import Testing

/// Replays the Apple SDK's federation request bodies (`fixtures/apple-sdk`: verifyAssertion,
/// revokeToken, unlink) in the order an app makes them (wire §3.18), with credentials the
/// emulator's own fake providers signed, and checks what the SDK reads back (wire §3.1, §3.5).
@Suite struct AppleSDKFederationFixtureTests {
    typealias Fixture = AppleSDKFixtureTests

    // MARK: Sign in with Apple

    @Test func appleSignInRefreshReauthenticateRevokeAndDelete() throws {
        let emulator = try TestEmulator()
        let nonce = Self.rawNonce()
        let apple = try Self.mint("apple.com", on: emulator, ["email": "ada@example.com", "nonce": .string(nonce)])
        let sub = try Self.string(apple, "sub")

        // First authorization: Apple hands the app the name, the SDK puts it raw into postBody.
        let signIn = try Fixture.replay(
            "signInWithAppleFullName", on: emulator, ["appleIdToken": try Self.string(apple, "idToken"), "rawNonce": nonce])
        #expect(signIn.status == 200)
        #expect(signIn["providerId"] == "apple.com")  // the SDK reports internalError without it
        #expect(signIn["expiresIn"] == "3600")  // a string, or the SDK refreshes in a loop
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["federatedId"] == .string(sub))
        #expect(signIn["oauthIdToken"] == apple["idToken"])  // AuthDataResult.credential.idToken
        #expect(signIn["needConfirmation"] == nil)
        let localId = try Self.string(signIn, "localId")
        _ = try Self.string(signIn, "idToken")
        let refreshToken = try Self.string(signIn, "refreshToken")

        let info = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(signIn, "idToken")]))
        #expect(info["localId"] == .string(localId))
        #expect(info["displayName"] == "Ada Lovelace")  // from postBody `user`, the only place it comes from
        #expect(info["email"] == "ada@example.com")
        #expect(info["emailVerified"] == true)  // Apple's "true" is a string in the token
        #expect(info["createdAt"]?.stringValue.flatMap(Int64.init) == TestEmulator.start.millisecondsSinceEpoch)
        #expect(Self.providerIds(info) == ["apple.com"])
        #expect(Self.provider("apple.com", of: info)?["federatedId"] == .string(sub))

        // [refresh]: the SDK reads the new ID token from access_token, its lifetime from a string.
        emulator.clock.advance(seconds: 60)
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        #expect(refreshed["access_token"]?.stringValue?.isEmpty == false)
        #expect(refreshed["expires_in"] == "3600")

        // A returning sign-in: Apple sends no name any more; the user keeps the first one.
        let nonce2 = Self.rawNonce()
        let again = try Self.mint("apple.com", on: emulator, ["email": "ada@example.com", "nonce": .string(nonce2)])
        #expect(again["sub"] == .string(sub))
        let returning = try Fixture.replay(
            "signInWithApple", on: emulator, ["appleIdToken": try Self.string(again, "idToken"), "rawNonce": nonce2])
        #expect(returning["localId"] == .string(localId))
        #expect(returning["isNewUser"] != true)
        #expect(returning["expiresIn"] == "3600")
        let infoAgain = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(returning, "idToken")]))
        #expect(infoAgain["displayName"] == "Ada Lovelace")

        // Before deleting, the app re-authenticates (autoCreate: false) for a fresh authorization code.
        emulator.clock.advance(seconds: 60)
        let nonce3 = Self.rawNonce()
        let fresh = try Self.mint("apple.com", on: emulator, ["email": "ada@example.com", "nonce": .string(nonce3)])
        let reauth = try Fixture.replay(
            "reauthenticateWithApple", on: emulator, ["appleIdToken": try Self.string(fresh, "idToken"), "rawNonce": nonce3])
        #expect(reauth.status == 200)
        #expect(reauth["localId"] == .string(localId))  // else the SDK reports userMismatch
        #expect(reauth["providerId"] == "apple.com")
        #expect(reauth["expiresIn"] == "3600")
        #expect(reauth["isNewUser"] != true)
        let idToken = try Self.string(reauth, "idToken")

        // Re-authenticating with an Apple ID nobody signed in with creates no user.
        let nonce4 = Self.rawNonce()
        let stranger = try Self.mint("apple.com", on: emulator, ["email": "grace@example.com", "nonce": .string(nonce4)])
        let refused = try Fixture.replay(
            "reauthenticateWithApple", on: emulator, ["appleIdToken": try Self.string(stranger, "idToken"), "rawNonce": nonce4])
        #expect(refused.status == 400)
        #expect(refused.errorMessage == "USER_NOT_FOUND")  // the SDK's userMismatch
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")

        // revokeToken(withAuthorizationCode:): a code minted for another Apple ID is refused…
        let otherCode = try Self.string(stranger, "authorizationCode")
        let wrongCode = try Fixture.replay("revokeToken", on: emulator, ["authorizationCode": otherCode, "idToken": idToken])
        #expect(wrongCode.status == 400)
        #expect(wrongCode.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        // …this user's fresh one is revoked, and the answer is a JSON object.
        let code = try Self.string(fresh, "authorizationCode")
        let revoked = try Fixture.replay("revokeToken", on: emulator, ["authorizationCode": code, "idToken": idToken])
        #expect(revoked.status == 200)
        #expect(revoked.json.objectValue?.isEmpty == true)
        let revocations = try #require(
            try emulator.send("GET", "/emulator/v1/idp/apple.com/revocations")["revocations"]?.arrayValue)
        #expect(revocations.count == 1)
        #expect(revocations.first?["sub"] == .string(sub))
        #expect(revocations.first?["authorizationCode"] == .string(code))
        #expect(revocations.first?["projectId"] == .string(TestEmulator.project))

        let deleted = try Fixture.replay("deleteAccount", on: emulator, ["idToken": idToken, "localId": localId])
        #expect(deleted.status == 200)
        #expect(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]).errorMessage == "USER_NOT_FOUND")
    }

    @Test func appleNameNamesOnlyANewUserAndAHiddenEmailIsTheRelay() throws {
        let emulator = try TestEmulator()
        let nonce = Self.rawNonce()
        let apple = try Self.mint(
            "apple.com", on: emulator, ["email": "bob@example.com", "hideEmail": true, "nonce": .string(nonce)])
        let relay = try Self.string(apple, "email")
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        #expect(apple["realEmail"] == "bob@example.com")

        // First sign-in without a name (the user declined to share it).
        let signIn = try Fixture.replay(
            "signInWithApple", on: emulator, ["appleIdToken": try Self.string(apple, "idToken"), "rawNonce": nonce])
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["email"] == .string(relay))
        let localId = try Self.string(signIn, "localId")
        let info = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(signIn, "idToken")]))
        #expect(info["displayName"] == nil)
        #expect(info["email"] == .string(relay))

        // A later sign-in carrying a name does not rename the existing user.
        let nonce2 = Self.rawNonce()
        let again = try Self.mint(
            "apple.com", on: emulator, ["email": "bob@example.com", "hideEmail": true, "nonce": .string(nonce2)])
        #expect(again["email"] == .string(relay))  // stable per Apple ID and app
        let returning = try Fixture.replay(
            "signInWithAppleFullName", on: emulator, ["appleIdToken": try Self.string(again, "idToken"), "rawNonce": nonce2])
        #expect(returning["localId"] == .string(localId))
        #expect(returning["isNewUser"] != true)
        let infoAgain = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(returning, "idToken")]))
        #expect(infoAgain["displayName"] == nil)

        // The raw nonce must be the one whose SHA-256 Apple put in the token.
        let wrongNonce = try Fixture.replay(
            "signInWithApple", on: emulator, ["appleIdToken": try Self.string(again, "idToken"), "rawNonce": "not-the-nonce"])
        #expect(wrongNonce.status == 400)
        #expect(wrongNonce.errorMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
    }

    // MARK: Linking and unlinking

    @Test func linkAppleToAnEmailPasswordUserThenUnlink() throws {
        let emulator = try TestEmulator()
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let localId = try Self.string(anonymous, "localId")
        let password = try Fixture.replay("linkEmailPassword", on: emulator, ["idToken": try Self.string(anonymous, "idToken")])
        #expect(password.status == 200)

        // link(with:): [refresh] → verifyAssertion(+idToken) → getAccountInfo.
        emulator.clock.advance(seconds: 10)
        let nonce = Self.rawNonce()
        let apple = try Self.mint("apple.com", on: emulator, ["email": "apple.user@example.com", "nonce": .string(nonce)])
        let linked = try Fixture.replay(
            "linkApple", on: emulator,
            ["idToken": try Self.string(password, "idToken"), "appleIdToken": try Self.string(apple, "idToken"), "rawNonce": nonce])
        #expect(linked.status == 200)
        #expect(linked["errorMessage"] == nil)
        // The SDK crashes on a link answer without all three.
        #expect(linked["idToken"]?.stringValue?.isEmpty == false)
        #expect(linked["refreshToken"]?.stringValue?.isEmpty == false)
        #expect(linked["providerId"] == "apple.com")
        #expect(linked["expiresIn"] == "3600")
        #expect(linked["localId"] == .string(localId))
        let idToken = try Self.string(linked, "idToken")

        let info = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(info["localId"] == .string(localId))
        #expect(Set(Self.providerIds(info)) == ["password", "apple.com"])
        #expect(info["passwordHash"]?.stringValue?.isEmpty == false)
        #expect(Self.provider("apple.com", of: info)?["federatedId"] == apple["sub"])

        // The Apple ID now signs in to the linked user.
        let nonce2 = Self.rawNonce()
        let again = try Self.mint("apple.com", on: emulator, ["email": "apple.user@example.com", "nonce": .string(nonce2)])
        let signIn = try Fixture.replay(
            "signInWithApple", on: emulator, ["appleIdToken": try Self.string(again, "idToken"), "rawNonce": nonce2])
        #expect(signIn["localId"] == .string(localId))
        #expect(signIn["isNewUser"] != true)

        // unlink(fromProvider:): setAccountInfo(deleteProvider); the SDK reads providerUserInfo back.
        let unlinked = try Fixture.replay("unlink", on: emulator, ["idToken": idToken])
        #expect(unlinked.status == 200)
        let remaining = try #require(unlinked["providerUserInfo"]?.arrayValue)
        #expect(remaining.allSatisfy { $0["providerId"] != nil })
        #expect(remaining.compactMap { $0["providerId"]?.stringValue } == ["password"])
        let after = try Self.onlyUser(
            try Fixture.replay("getAccountInfo", on: emulator, ["idToken": unlinked["idToken"]?.stringValue ?? idToken]))
        #expect(Self.providerIds(after) == ["password"])
        #expect(try Fixture.replay("verifyPassword", on: emulator)["localId"] == .string(localId))
    }

    // MARK: Facebook

    @Test func facebookClassicAndLimitedLoginSignInTheSameUser() throws {
        let emulator = try TestEmulator()
        let nonce = Self.rawNonce()
        let facebook = try Self.mint(
            "facebook.com", on: emulator, ["email": "fiona@example.com", "name": "Fiona Book", "nonce": .string(nonce)])

        // Classic login: an opaque access token the fake Graph API resolves.
        let classic = try Fixture.replay("signInWithFacebook", on: emulator, ["accessToken": try Self.string(facebook, "accessToken")])
        #expect(classic.status == 200)
        #expect(classic["providerId"] == "facebook.com")
        #expect(classic["expiresIn"] == "3600")
        #expect(classic["isNewUser"] == true)
        #expect(classic["oauthAccessToken"] == facebook["accessToken"])
        let localId = try Self.string(classic, "localId")
        let info = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(classic, "idToken")]))
        #expect(info["email"] == "fiona@example.com")
        #expect(info["displayName"] == "Fiona Book")
        #expect(Self.providerIds(info) == ["facebook.com"])
        #expect(Self.provider("facebook.com", of: info)?["federatedId"] == facebook["sub"])

        // Limited Login: the JWT with SHA-256(raw nonce) in it, and the raw nonce.
        let limited = try Fixture.replay(
            "signInWithFacebookLimitedLogin", on: emulator,
            ["facebookIdToken": try Self.string(facebook, "idToken"), "rawNonce": nonce])
        #expect(limited.status == 200)
        #expect(limited["providerId"] == "facebook.com")
        #expect(limited["localId"] == .string(localId))
        #expect(limited["isNewUser"] != true)
        #expect(limited["expiresIn"] == "3600")

        let wrongNonce = try Fixture.replay(
            "signInWithFacebookLimitedLogin", on: emulator,
            ["facebookIdToken": try Self.string(facebook, "idToken"), "rawNonce": "another-nonce"])
        #expect(wrongNonce.status == 400)
        #expect(wrongNonce.errorMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
        let unknownToken = try Fixture.replay("signInWithFacebook", on: emulator, ["accessToken": "EAAGneverIssuedByTheFakeGraph"])
        #expect(unknownToken.status == 400)
        #expect(unknownToken.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")
    }

    // MARK: Headful OAuth (wire §2)

    @Test func headfulOAuthSignInThroughTheHandlerPage() throws {
        let emulator = try TestEmulator()
        let sessionId = Self.uppercaseLetters(10)
        let eventId = Self.uppercaseLetters(10)
        // The URL the SDK opens in SFSafariViewController (wire §2.2), appId form of §2.1.
        let page = "/emulator/auth/handler?apiKey=AIzaFakeAppleKey&authType=signInWithRedirect&ibi=com.example.app"
            + "&sessionId=\(SHA256.hexDigest(of: sessionId))"
            + "&v=FirebaseAuth.iOS/12.19.0%20com.example.app/1.0%20iPhone/17.5%20hw/sim"
            + "&eventId=\(eventId)&providerId=yahoo.com&appId=1:123:ios:abc&scopes="
        let shown = try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", page)
        #expect(shown.status == 200)
        #expect(shown.header("Content-Type")?.hasPrefix("text/html") == true)
        let action = try #require(Self.newAccountFormAction(shown.text))
        #expect(action.hasPrefix("/emulator/auth/handler?"))

        // The user fills in the form; the page answers with a redirect into the app.
        let form = "email=ada%40example.com&name=Ada+Lovelace&emailVerified=on"
        let posted = try RawHTTPConnection(port: emulator.emulator.port).exchange(
            "POST", action, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
        #expect(posted.status == 303)
        let location = try #require(posted.header("Location"))

        // AuthWebUtils.isExpectedCallbackURL (wire §2.3), then OAuthProvider.oAuthResponseForURL.
        let callback = try #require(URLComponents(string: location))
        #expect(callback.scheme == "app-1-123-ios-abc")
        #expect(callback.host == "firebaseauth")
        #expect(callback.path == "/link")
        let outer = Self.httpArguments(Self.query(of: location))
        let deepLink = try #require(outer["deep_link_id"])
        #expect(URLComponents(string: deepLink) != nil)
        let inner = Self.httpArguments(Self.query(of: deepLink))
        #expect(inner["authType"] == "signInWithRedirect")
        #expect(inner["eventId"] == eventId)
        let link = try #require(inner["link"])

        // The raw session id must be the one whose SHA-256 opened the page; a refusal writes nothing.
        let wrongSession = try Fixture.replay("signInWithOAuthProvider", on: emulator, ["link": link, "sessionId": "ZZZZZZZZZZ"])
        #expect(wrongSession.status == 400)
        #expect(wrongSession.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "0")

        let signIn = try Fixture.replay("signInWithOAuthProvider", on: emulator, ["link": link, "sessionId": sessionId])
        #expect(signIn.status == 200)
        #expect(signIn["providerId"] == "yahoo.com")
        #expect(signIn["expiresIn"] == "3600")
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["email"] == "ada@example.com")
        #expect(signIn["idToken"]?.stringValue?.isEmpty == false)
        #expect(signIn["refreshToken"]?.stringValue?.isEmpty == false)
        let info = try Self.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Self.string(signIn, "idToken")]))
        #expect(info["localId"] == signIn["localId"])
        #expect(info["email"] == "ada@example.com")
        #expect(info["displayName"] == "Ada Lovelace")
        #expect(Self.providerIds(info) == ["yahoo.com"])

        // Next time the page offers the account.
        let again = try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", page)
        #expect(again.status == 200)
        #expect(again.text.contains("ada@example.com"))
    }

    // MARK: Helpers

    /// `POST /emulator/v1/idp/{idp}/tokens`: a credential the emulator's fake provider signed.
    static func mint(_ idp: String, on emulator: TestEmulator, _ body: JSONValue) throws -> TestEmulator.Reply {
        let reply = try emulator.send("POST", "/emulator/v1/idp/\(idp)/tokens", json: body)
        try #require(reply.status == 200, "minting a \(idp) token: \(reply.json)")
        return reply
    }

    static func string(_ reply: TestEmulator.Reply, _ key: String) throws -> String {
        let value = try #require(reply[key]?.stringValue, "no string \(key) in \(reply.status) \(reply.json)")
        try #require(!value.isEmpty, "empty \(key)")
        return value
    }

    /// The one user of a getAccountInfo answer: the SDK reports an internal error for any other count.
    static func onlyUser(_ reply: TestEmulator.Reply) throws -> JSONValue {
        try #require(reply.status == 200, "getAccountInfo: \(reply.status) \(reply.json)")
        let users = try #require(reply["users"]?.arrayValue)
        try #require(users.count == 1)
        let providers = try #require(users[0]["providerUserInfo"]?.arrayValue)
        // providerId is the key of User.providerData: the SDK crashes on an entry without it.
        #expect(providers.allSatisfy { $0["providerId"]?.stringValue?.isEmpty == false })
        return users[0]
    }

    static func providerIds(_ user: JSONValue) -> [String] {
        (user["providerUserInfo"]?.arrayValue ?? []).compactMap { $0["providerId"]?.stringValue }
    }

    static func provider(_ providerId: String, of user: JSONValue) -> JSONValue? {
        user["providerUserInfo"]?.arrayValue?.first { $0["providerId"]?.stringValue == providerId }
    }

    /// A raw nonce as apps make them (the SDK's samples use random URL-safe characters).
    static func rawNonce() -> String {
        let characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVXYZabcdefghijklmnopqrstuvwxyz-._")
        return String((0..<32).map { _ in characters.randomElement()! })
    }

    /// The SDK's session and event ids: random uppercase letters.
    static func uppercaseLetters(_ count: Int) -> String {
        String((0..<count).map { _ in Character(UnicodeScalar(UInt8.random(in: 65...90))) })
    }

    /// The `action` of the page's "Add new account" form, with the HTML character references undone.
    static func newAccountFormAction(_ html: String) -> String? {
        guard let form = html.range(of: "class=\"new\">") else { return nil }
        let head = html[..<form.lowerBound]
        guard let start = head.range(of: "action=\"", options: .backwards) else { return nil }
        let rest = head[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The raw query of a URL: after the first `?`, up to a `#`.
    static func query(of url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return "" }
        let rest = url[url.index(after: mark)...]
        return String(rest.prefix { $0 != "#" })
    }

    /// `AuthWebUtils.dictionary(withHttpArgumentsString:)`: split on `&`, at the first `=`,
    /// `+` → space, percent-decode; the first occurrence of a key wins.
    static func httpArguments(_ query: String) -> [String: String] {
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        var arguments: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            if arguments[key] == nil { arguments[key] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return arguments
    }
}
