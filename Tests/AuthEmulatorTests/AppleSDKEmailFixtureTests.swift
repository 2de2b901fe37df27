import Foundation
import JSON
import Testing

/// Replays the Apple SDK's email-action request bodies (`fixtures/apple-sdk`: getOobConfirmationCode,
/// emailLinkSignin, resetPassword, setAccountInfo with an oobCode) in the order an app makes them
/// (wire §3.18), takes each email from the outbox as the user's mail app would get it, parses its
/// link the way the SDK does (wire §4), and checks what the SDK reads back (wire §3.2–§3.6).
@Suite struct AppleSDKEmailFixtureTests {
    typealias Fixture = AppleSDKFixtureTests
    typealias Federation = AppleSDKFederationFixtureTests

    /// The emails in sendSignInLink.json / emailLinkSignin.json, linkEmailPassword.json and
    /// sendEmailVerificationBeforeUpdatingEmail.json.
    static let linkEmail = "link.user@example.com"
    static let passwordEmail = "apple.user@example.com"
    static let newEmail = "new.address@example.com"
    static let continueUrl = "https://app.example.com/finishSignIn?cart=42&from=email"

    // MARK: Email-link sign-in

    @Test func signInLinkFromTheOutboxSignsInOnce() throws {
        let emulator = try TestEmulator()

        // sendSignInLink(toEmail:actionCodeSettings:) → getOobConfirmationCode; the SDK reads nothing
        // of the answer, but it must be a JSON object.
        let sent = try Fixture.replay("sendSignInLink", on: emulator)
        #expect(sent.status == 200)
        #expect(sent.json.objectValue != nil)
        #expect(sent["oobCode"] == nil)  // only an owner's returnOobLink gets the code

        let message = try Self.onlyMessage(to: Self.linkEmail, on: emulator)
        #expect(message["requestType"] == "EMAIL_SIGNIN")
        #expect(message["continueUrl"] == .string(Self.continueUrl))
        let code = try #require(message["oobCode"]?.stringValue)
        // canHandleCodeInApp: the message holds the app's link, on the project's Hosting domain;
        // the mail a person reads links to the emulator, so a click never leaves localhost.
        let appLink = try #require(message["appLink"]?.stringValue)
        #expect(appLink.hasPrefix("https://\(TestEmulator.project).firebaseapp.com/__/auth/links?link="))
        let oobLink = try #require(message["oobLink"]?.stringValue)
        #expect(oobLink.hasPrefix("http://") && oobLink.contains("/emulator/action?mode=signIn&lang=en&oobCode="))
        #expect(message["text"]?.stringValue?.contains(oobLink) == true)
        #expect(message["text"]?.stringValue?.contains(appLink) == false)

        // The app receives appLink; Auth.isSignIn(withEmailLink:) must say yes, or
        // signIn(withEmail:link:) crashes (wire §4.2); the code comes out of the same parse.
        #expect(Self.isSignIn(withEmailLink: appLink))
        let items = Self.emailLinkQueryItems(appLink)
        #expect(items["oobCode"] == code)
        #expect(items["continueUrl"] == Self.continueUrl)  // its own `&` did not leak out
        #expect(Self.isSignIn(withEmailLink: message["oobLink"]?.stringValue ?? ""))
        #expect(Self.emailLinkQueryItems(message["oobLink"]?.stringValue ?? "")["oobCode"] == code)
        #expect(Self.actionCodeURL(appLink)?["mode"] == "signIn")

        // checkActionCode on a sign-in code: the SDK crashes without `email` (wire §3.4). It
        // inspects only; the code stays usable.
        let inspected = try Fixture.replay("checkActionCode", on: emulator, ["oobCode": code])
        #expect(inspected.status == 200)
        #expect(inspected["email"] == .string(Self.linkEmail))
        #expect(inspected["requestType"] == "EMAIL_SIGNIN")

        // signIn(withEmail:link:) → emailLinkSignin → [refresh] → getAccountInfo.
        let signIn = try Fixture.replay("emailLinkSignin", on: emulator, ["oobCode": code])
        #expect(signIn.status == 200)
        let idToken = try Federation.string(signIn, "idToken")
        let refreshToken = try Federation.string(signIn, "refreshToken")
        #expect(signIn["expiresIn"] == "3600")  // a string, or the SDK refreshes in a loop
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["email"] == .string(Self.linkEmail))
        #expect(signIn["mfaPendingCredential"] == nil)
        #expect(try TokenInspection.decode(idToken).payload["firebase"]?["sign_in_provider"] == "password")
        let localId = try Federation.string(signIn, "localId")

        emulator.clock.advance(seconds: 10)
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        #expect(refreshed["access_token"]?.stringValue?.isEmpty == false)
        #expect(refreshed["expires_in"] == "3600")

        let user = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(user["localId"] == .string(localId))
        #expect(user["email"] == .string(Self.linkEmail))
        #expect(user["emailVerified"] == true)
        #expect(user["createdAt"]?.stringValue.flatMap(Int64.init) == TestEmulator.start.millisecondsSinceEpoch)
        #expect(user["passwordHash"]?.stringValue?.isEmpty ?? true)  // no password: a link user
        #expect(Federation.providerIds(user) == ["password"])
        #expect(Federation.provider("password", of: user)?["federatedId"] == .string(Self.linkEmail))
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")

        // The code is used up; a new link signs the same user in again.
        let reused = try Fixture.replay("emailLinkSignin", on: emulator, ["oobCode": code])
        #expect(reused.status == 400)
        #expect(reused.errorMessage == "INVALID_OOB_CODE")
        _ = try Fixture.replay("sendSignInLink", on: emulator)
        let second = try Self.latestMessage(to: Self.linkEmail, on: emulator)
        #expect(second["oobCode"] != .string(code))
        let secondCode = try #require(Self.emailLinkQueryItems(second["appLink"]?.stringValue ?? "")["oobCode"])
        let again = try Fixture.replay("emailLinkSignin", on: emulator, ["oobCode": secondCode])
        #expect(again["localId"] == .string(localId))
        #expect(again["isNewUser"] == false)
        #expect(again["expiresIn"] == "3600")
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")
    }

    @Test func anonymousUserLinksAnEmailLink() throws {
        let emulator = try TestEmulator()
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let localId = try Federation.string(anonymous, "localId")

        _ = try Fixture.replay("sendSignInLink", on: emulator)
        let message = try Self.onlyMessage(to: Self.linkEmail, on: emulator)
        let appLink = try #require(message["appLink"]?.stringValue)
        #expect(Self.isSignIn(withEmailLink: appLink))
        let code = try #require(Self.emailLinkQueryItems(appLink)["oobCode"])

        // link(with: EmailAuthProvider.credential(withEmail:link:)) → emailLinkSignin(+idToken).
        emulator.clock.advance(seconds: 10)
        let linked = try Fixture.replay(
            "linkEmailLink", on: emulator, ["oobCode": code, "idToken": try Federation.string(anonymous, "idToken")])
        #expect(linked.status == 200)
        // The SDK crashes on a link answer without both tokens.
        let idToken = try Federation.string(linked, "idToken")
        _ = try Federation.string(linked, "refreshToken")
        #expect(linked["expiresIn"] == "3600")
        #expect(linked["localId"] == .string(localId))
        #expect(linked["email"] == .string(Self.linkEmail))

        let user = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(user["localId"] == .string(localId))
        #expect(user["email"] == .string(Self.linkEmail))
        #expect(user["emailVerified"] == true)
        #expect(Federation.providerIds(user) == ["password"])
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")

        // The code was used by the link; the next link signs in to the same, formerly anonymous, user.
        #expect(try Fixture.replay("emailLinkSignin", on: emulator, ["oobCode": code]).errorMessage == "INVALID_OOB_CODE")
        _ = try Fixture.replay("sendSignInLink", on: emulator)
        let next = try #require(
            Self.emailLinkQueryItems(try Self.latestMessage(to: Self.linkEmail, on: emulator)["appLink"]?.stringValue ?? "")["oobCode"])
        let signIn = try Fixture.replay("emailLinkSignin", on: emulator, ["oobCode": next])
        #expect(signIn["localId"] == .string(localId))
        #expect(signIn["isNewUser"] == false)
    }

    // MARK: Password reset

    @Test func passwordResetCheckConfirmAndSignInWithTheNewPassword() throws {
        let emulator = try TestEmulator()
        let user = try Self.passwordUser(on: emulator)

        // sendPasswordReset(withEmail:actionCodeSettings:) with a continue URL, handled on the web.
        let sent = try Fixture.replay("sendPasswordReset", on: emulator)
        #expect(sent.status == 200)
        #expect(sent.json.objectValue != nil)
        let message = try Self.onlyMessage(to: Self.passwordEmail, on: emulator)
        #expect(message["requestType"] == "PASSWORD_RESET")
        #expect(message["appLink"] == .null)  // canHandleCodeInApp was not set
        let oobLink = try #require(message["oobLink"]?.stringValue)
        let code = try #require(message["oobCode"]?.stringValue)
        // ActionCodeURL(link:) (wire §4.3), as an app that gets the link reads it.
        let url = try #require(Self.actionCodeURL(oobLink))
        #expect(url["mode"] == "resetPassword")
        #expect(url["oobCode"] == code)
        #expect(url["continueUrl"] == "https://app.example.com/signedOut")
        #expect(!Self.isSignIn(withEmailLink: oobLink))

        // checkActionCode / verifyPasswordResetCode: resetPassword without newPassword.
        let inspected = try Fixture.replay("checkActionCode", on: emulator, ["oobCode": code])
        #expect(inspected.status == 200)
        #expect(inspected["email"] == .string(Self.passwordEmail))  // the SDK crashes without it
        #expect(inspected["requestType"] == "PASSWORD_RESET")
        #expect(inspected["newEmail"] == nil)

        // confirmPasswordReset(withCode:newPassword:).
        emulator.clock.advance(seconds: 10)
        let confirmed = try Fixture.replay("confirmPasswordReset", on: emulator, ["oobCode": code])
        #expect(confirmed.status == 200)
        #expect(confirmed["email"] == .string(Self.passwordEmail))
        #expect(confirmed["requestType"] == "PASSWORD_RESET")
        let again = try Fixture.replay("confirmPasswordReset", on: emulator, ["oobCode": code])
        #expect(again.status == 400)
        #expect(again.errorMessage == "INVALID_OOB_CODE")

        // The old sessions end; the old password no longer signs in, the new one does.
        #expect(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": user.idToken]).errorMessage == "TOKEN_EXPIRED")
        let oldPassword = try Fixture.replay("verifyPassword", on: emulator)
        #expect(oldPassword.status == 400)
        #expect(["INVALID_PASSWORD", "INVALID_LOGIN_CREDENTIALS"].contains(oldPassword.errorMessage ?? ""))
        let signIn = try Self.replay("verifyPassword", on: emulator, setting: ["password": "tr0ub4dor & 3"])
        #expect(signIn.status == 200)
        #expect(signIn["localId"] == .string(user.localId))
        #expect(signIn["expiresIn"] == "3600")
        let info = try Federation.onlyUser(
            try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Federation.string(signIn, "idToken")]))
        #expect(info["emailVerified"] == true)  // following the mailed link proved the address
        #expect(info["passwordHash"]?.stringValue?.isEmpty == false)
    }

    // MARK: Email verification

    @Test func sendEmailVerificationThenApplyActionCode() throws {
        let emulator = try TestEmulator()
        let user = try Self.passwordUser(on: emulator)
        let before = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": user.idToken]))
        #expect(before["emailVerified"] != true)

        // sendEmailVerification() → [refresh] → getOobConfirmationCode(VERIFY_EMAIL, idToken).
        let sent = try Fixture.replay("sendEmailVerification", on: emulator, ["idToken": user.idToken])
        #expect(sent.status == 200)
        #expect(sent.json.objectValue != nil)
        let message = try Self.onlyMessage(to: Self.passwordEmail, on: emulator)
        #expect(message["requestType"] == "VERIFY_EMAIL")
        #expect(message["subject"] == .string("Verify your email for project-\(TestEmulator.project)"))
        let code = try #require(message["oobCode"]?.stringValue)
        #expect(Self.actionCodeURL(message["oobLink"]?.stringValue ?? "")?["mode"] == "verifyEmail")

        let inspected = try Fixture.replay("checkActionCode", on: emulator, ["oobCode": code])
        #expect(inspected["email"] == .string(Self.passwordEmail))
        #expect(inspected["requestType"] == "VERIFY_EMAIL")

        // applyActionCode(_:) → setAccountInfo {oobCode, returnSecureToken} without an idToken; the
        // SDK discards the answer, then the app reloads the user.
        let applied = try Fixture.replay("applyActionCode", on: emulator, ["oobCode": code])
        #expect(applied.status == 200)
        #expect(applied.json.objectValue != nil)
        let after = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": user.idToken]))
        #expect(after["emailVerified"] == true)
        #expect(after["email"] == .string(Self.passwordEmail))
        #expect(after["localId"] == .string(user.localId))

        let twice = try Fixture.replay("applyActionCode", on: emulator, ["oobCode": code])
        #expect(twice.status == 400)
        #expect(twice.errorMessage == "INVALID_OOB_CODE")
    }

    @Test func verifyBeforeUpdateEmailMailsTheNewAddressAndApplyingChangesTheEmail() throws {
        let emulator = try TestEmulator()
        let user = try Self.passwordUser(on: emulator)

        // sendEmailVerification(beforeUpdatingEmail:) → getOobConfirmationCode(VERIFY_AND_CHANGE_EMAIL).
        let sent = try Fixture.replay("sendEmailVerificationBeforeUpdatingEmail", on: emulator, ["idToken": user.idToken])
        #expect(sent.status == 200)
        #expect(sent.json.objectValue != nil)
        // The mail goes to the address to prove, not to the account's current one.
        let message = try Self.onlyMessage(to: Self.newEmail, on: emulator)
        #expect(message["requestType"] == "VERIFY_AND_CHANGE_EMAIL")
        #expect(try Self.messages(on: emulator, "?to=\(Self.passwordEmail)").isEmpty)
        let code = try #require(message["oobCode"]?.stringValue)
        #expect(Self.actionCodeURL(message["oobLink"]?.stringValue ?? "")?["mode"] == "verifyAndChangeEmail")
        // Nothing changes before the link is followed.
        let unchanged = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": user.idToken]))
        #expect(unchanged["email"] == .string(Self.passwordEmail))

        // checkActionCode: ActionCodeInfo.email = newEmail, previousEmail = email.
        let inspected = try Fixture.replay("checkActionCode", on: emulator, ["oobCode": code])
        #expect(inspected["email"] == .string(Self.passwordEmail))
        #expect(inspected["newEmail"] == .string(Self.newEmail))
        #expect(inspected["requestType"] == "VERIFY_AND_CHANGE_EMAIL")

        let applied = try Fixture.replay("applyActionCode", on: emulator, ["oobCode": code])
        #expect(applied.status == 200)
        #expect(applied.json.objectValue != nil)

        // The account now has the new address, verified; the password signs in under it.
        let signIn = try Self.replay("verifyPassword", on: emulator, setting: ["email": .string(Self.newEmail)])
        #expect(signIn.status == 200)
        #expect(signIn["localId"] == .string(user.localId))
        let info = try Federation.onlyUser(
            try Fixture.replay("getAccountInfo", on: emulator, ["idToken": try Federation.string(signIn, "idToken")]))
        #expect(info["email"] == .string(Self.newEmail))
        #expect(info["emailVerified"] == true)
        #expect(Federation.provider("password", of: info)?["email"] == .string(Self.newEmail))
        #expect(Federation.provider("password", of: info)?["federatedId"] == .string(Self.newEmail))
        #expect(try Fixture.replay("verifyPassword", on: emulator).status == 400)  // the old address is gone
    }

    // MARK: Apple's private relay

    @Test func mailToAHiddenAppleEmailIsRelayedToTheRealAddress() throws {
        let emulator = try TestEmulator()
        let nonce = Federation.rawNonce()
        let apple = try Federation.mint(
            "apple.com", on: emulator, ["email": "real.person@example.com", "hideEmail": true, "nonce": .string(nonce)])
        let relay = try Federation.string(apple, "email")
        #expect(relay.hasSuffix("@privaterelay.appleid.com"))
        let signIn = try Fixture.replay(
            "signInWithApple", on: emulator, ["appleIdToken": try Federation.string(apple, "idToken"), "rawNonce": nonce])
        #expect(signIn["email"] == .string(relay))

        _ = try Fixture.replay("sendEmailVerification", on: emulator, ["idToken": try Federation.string(signIn, "idToken")])
        let message = try Self.onlyMessage(to: relay, on: emulator)
        #expect(message["from"] == .string("noreply@\(TestEmulator.project).firebaseapp.com"))
        #expect(message["delivery"]?["status"] == "relayed")
        #expect(message["delivery"]?["forwardedTo"] == "real.person@example.com")
    }

    /// The parse above against the rows of wire §4.1's table, so the checks on the emulator's
    /// links rest on the SDK's behaviour and not on this file's reading of it.
    @Test func theLinkParseMatchesTheSDKsOnTheWireExamples() {
        let signIn: [(String, String)] = [
            ("http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=XYZ&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.example.com%2Ffinish%3Fx%3D1", "XYZ"),
            ("https://example.domain.com/?apiKey=testAPIKey&oobCode=testoobcode&mode=signIn", "testoobcode"),
            ("https://test.app.goo.gl/?link=https://test.firebaseapp.com/__/auth/action?apiKey%3DtestAPIKey%26mode%3DsignIn%26oobCode%3Dtestoobcode%26continueUrl%3Dhttps://test.apps.com&ibi=com.test.com&ifl=https://test.firebaseapp.com/__/auth/action?apiKey%3DtestAPIKey%26mode%3DsignIn%26oobCode%3Dtestoobcode%26continueUrl%3Dhttps://test.apps.com", "testoobcode"),
            ("https://x.page.link/?link=https%3A%2F%2Fx.firebaseapp.com%2F__%2Fauth%2Faction%3FapiKey%3Dk%26mode%3DsignIn%26oobCode%3Dabc&apn=a&ibi=b", "abc"),
            ("myapp://finish?oobCode=abc&mode=signIn", "abc"),
        ]
        for (link, code) in signIn {
            #expect(Self.isSignIn(withEmailLink: link), "\(link)")
            #expect(Self.emailLinkQueryItems(link)["oobCode"] == code, "\(link)")
        }
        let notSignIn = [
            "",
            "https://x.page.link/?link=https%3A%2F%2Fx.firebaseapp.com%2F__%2Fauth%2Faction%3FoobCode%3Dabc%26mode%3DsignIn",  // oobCode first: swallowed
            "https://x.page.link/?link=https%253A%252F%252Fx.firebaseapp.com%252Faction%253FapiKey%253Dk%2526mode%253DsignIn%2526oobCode%253Dabc",  // encoded twice
            "https://example.com/?mode=verifyEmail&oobCode=abc",
        ]
        for link in notSignIn { #expect(!Self.isSignIn(withEmailLink: link), "\(link)") }
    }

    // MARK: Helpers

    struct SignedIn {
        let localId: String
        let idToken: String
    }

    /// An email+password user as apps usually make one: anonymous first, then the password linked
    /// (linkEmailPassword.json: apple.user@example.com, email not verified).
    static func passwordUser(on emulator: TestEmulator) throws -> SignedIn {
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let linked = try Fixture.replay("linkEmailPassword", on: emulator, ["idToken": try Federation.string(anonymous, "idToken")])
        try #require(linked.status == 200, "linkEmailPassword: \(linked.json)")
        return SignedIn(localId: try Federation.string(linked, "localId"), idToken: try Federation.string(linked, "idToken"))
    }

    /// A fixture whose body fields in `setting` take other values (same keys, same order).
    static func replay(_ name: String, on emulator: TestEmulator, setting: JSONObject) throws -> TestEmulator.Reply {
        let text = try String(contentsOf: Fixture.fixtures.appendingPathComponent("\(name).json"), encoding: .utf8)
        let fixture = try JSONValue(parsing: text)
        let path = try #require(fixture["path"]?.stringValue)
        var body = try #require(fixture["body"]?.objectValue)
        for (key, value) in setting.members {
            try #require(body[key] != nil, "\(name).json has no \(key)")
            body[key] = value
        }
        return try emulator.send(
            "POST", path, json: .object(body), headers: [("X-Client-Version", "iOS/FirebaseSDK/12.19.0/FirebaseCore-iOS")])
    }

    static func messages(on emulator: TestEmulator, _ query: String) throws -> [JSONValue] {
        let reply = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages\(query)")
        try #require(reply.status == 200, "outbox: \(reply.status) \(reply.json)")
        return try #require(reply["messages"]?.arrayValue)
    }

    /// The one message in the outbox for `address`.
    static func onlyMessage(to address: String, on emulator: TestEmulator) throws -> JSONValue {
        let found = try messages(on: emulator, "?to=\(address)")
        try #require(found.count == 1, "\(found.count) messages to \(address)")
        #expect(found[0]["to"] == .string(address))
        return found[0]
    }

    /// The newest message for `address` (the list is newest first).
    static func latestMessage(to address: String, on emulator: TestEmulator) throws -> JSONValue {
        try #require(try messages(on: emulator, "?to=\(address)&limit=1").first)
    }

    /// `Auth.isSignIn(withEmailLink:)` (wire §4.1).
    static func isSignIn(withEmailLink link: String) -> Bool {
        guard !link.isEmpty else { return false }
        let items = emailLinkQueryItems(link)
        return items["oobCode"] != nil && items["mode"] == "signIn"
    }

    /// `Auth.getQueryItems` / `AuthWebUtils.parseURL` (wire §4.1): `URLComponents.query` (decoded
    /// once), split on `&` and at the first `=`, each side decoded again (a piece that does not
    /// decode is dropped), later keys win; if that yields nothing, the query is parsed as a URL.
    static func emailLinkQueryItems(_ link: String) -> [String: String] {
        func parse(_ query: String) -> [String: String] {
            var items: [String: String] = [:]
            for piece in query.split(separator: "&", omittingEmptySubsequences: false) {
                guard let equals = piece.firstIndex(of: "=") else { continue }
                guard let key = String(piece[..<equals]).removingPercentEncoding,
                    let value = String(piece[piece.index(after: equals)...]).removingPercentEncoding
                else { continue }
                items[key] = value
            }
            return items
        }
        guard let query = URLComponents(string: link)?.query else { return [:] }
        let items = parse(query)
        if !items.isEmpty { return items }
        return URLComponents(string: query)?.query.map(parse) ?? [:]
    }

    /// `ActionCodeURL(link:)` (wire §4.3): the once-decoded query split on `&` and `=`, the value
    /// being the text between the first and second `=`; nil when there are no items.
    static func actionCodeURL(_ link: String) -> [String: String]? {
        guard let query = URLComponents(string: link)?.query else { return nil }
        var items: [String: String] = [:]
        for piece in query.split(separator: "&") {
            let parts = piece.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count > 1, let key = String(parts[0]).removingPercentEncoding,
                let value = String(parts[1]).removingPercentEncoding
            else { continue }
            items[key] = value
        }
        return items.isEmpty ? nil : items
    }
}
