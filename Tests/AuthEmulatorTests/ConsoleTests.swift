import Foundation
import HTTPTestSupport
import JSON
import Testing

@testable import AuthEmulator

/// The web console at `/emulator/ui` over a real socket: every page renders, every form posts and
/// redirects with a flash message, and its safety rules hold (CSRF token, same-origin posts,
/// escaping).
@Suite struct ConsoleTests {
    /// A browser's view of one emulator: pages, their forms' tokens, posts.
    struct Browser {
        let emulator: TestEmulator

        func get(_ path: String) throws -> RawHTTPConnection.Response {
            try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", path, headers: [("Accept", "text/html")])
        }

        /// The page at `path`, which must answer 200 HTML.
        func page(_ path: String) throws -> String {
            let response = try get(path)
            #expect(response.status == 200, "GET \(path): \(response.status) \(response.text)")
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            return response.text
        }

        /// Posts a form as a browser does from the console itself (same-origin headers), with a
        /// token taken from `tokenFrom` unless `fields` has one.
        func post(
            _ path: String, _ fields: [(String, String)], tokenFrom page: String = "/emulator/ui/users/new",
            headers: [(String, String)] = [("Origin", "http://localhost"), ("Sec-Fetch-Site", "same-origin")]
        ) throws -> RawHTTPConnection.Response {
            var fields = fields
            if !fields.contains(where: { $0.0 == "csrf" }) { fields.insert(("csrf", try ConsoleTests.token(in: try self.page(page))), at: 0) }
            let body = FormURLEncoding.encode(fields.map { (name: $0.0, value: $0.1) })
            return try RawHTTPConnection(port: emulator.emulator.port).exchange(
                "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Array(body.utf8))
        }

        /// Posts a form the console refuses: it answers its page again (400), and the page is answered.
        func refused(_ path: String, _ fields: [(String, String)]) throws -> String {
            let response = try post(path, fields)
            #expect(response.status == 400, "POST \(path): \(response.status) \(response.text)")
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            return response.text
        }

        /// Posts, expects a 303 back into the console, and answers the page it leads to.
        func submit(_ path: String, _ fields: [(String, String)], tokenFrom page: String = "/emulator/ui/users/new") throws -> (location: String, page: String) {
            let response = try post(path, fields, tokenFrom: page)
            #expect(response.status == 303, "POST \(path): \(response.status) \(response.text)")
            let location = try #require(response.header("Location"))
            #expect(location.hasPrefix("/emulator/ui/"))
            return (location, try self.page(location))
        }

        func user(_ localId: String) throws -> JSONValue? {
            try emulator.admin("accounts:lookup", ["localId": [.string(localId)]])["users"]?.arrayValue?.first
        }
    }

    static func token(in page: String) throws -> String {
        let marker = "name=\"csrf\" value=\""
        let start = try #require(page.range(of: marker)?.upperBound)
        return String(page[start...].prefix { $0 != "\"" })
    }

    /// The page without the console's own script, the only one a page may carry.
    static func withoutConsoleScript(_ page: String) -> String {
        page.replacingOccurrences(of: "<script>\(ConsoleLayout.script)</script>", with: "")
    }

    static func query(_ location: String, _ name: String) -> String? {
        URLComponents(string: location)?.queryItems?.first { $0.name == name }?.value
    }

    @Test func everyPageRendersWithTheProjectShownLoudly() throws {
        let browser = Browser(emulator: try TestEmulator())
        for path in ["/emulator/ui", "/emulator/ui/", "/emulator/ui/users", "/emulator/ui/users/new", "/emulator/ui/users/delete-all",
            "/emulator/ui/outbox", "/emulator/ui/providers", "/emulator/ui/clock", "/emulator/ui/settings"]
        {
            let page = try browser.page(path)
            #expect(page.contains("<strong id=\"project-id\">\(TestEmulator.project)</strong>"), "\(path)")
            #expect(page.contains("name=\"viewport\""))
            // One script, the console's own progressive enhancement, and nothing else.
            #expect(page.contains("<script>\(ConsoleLayout.script)</script>"), "\(path)")
            #expect(!Self.withoutConsoleScript(page).contains("<script"), "\(path) carries another script")
        }
        #expect(try browser.get("/emulator/ui/user?uid=nobody").status == 404)
        #expect(try browser.get("/emulator/ui/message?id=42").status == 404)
        // Another project and a tenant, chosen in the query, are shown as loudly.
        let other = try browser.page("/emulator/ui/users?project=other-project&tenant=t-1")
        #expect(other.contains("<strong id=\"project-id\">other-project</strong>"))
        #expect(other.contains("<span class=\"word\">tenant</span> <strong title=\"t-1\">t-1</strong>"))
        #expect(other.contains("not the emulator's project"))
        #expect(other.contains("href=\"/emulator/ui/outbox?project=other-project&amp;tenant=t-1\""))
    }

    @Test func passwordUserIsCreatedEditedDisabledVerifiedRevokedAndDeleted() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let created = try browser.submit("/emulator/ui/users/new", [
            ("provider", "password"), ("email", "Ada@Example.com"), ("password", "secret123"), ("displayName", "Ada"),
            ("claims", #"{"admin":true}"#),
        ])
        let uid = try #require(Self.query(created.location, "uid"))
        #expect(created.page.contains("Created user \(uid) (password)."))
        #expect(created.page.contains("ada@example.com"))
        #expect(created.page.contains("&quot;admin&quot; : true") || created.page.contains("&quot;admin&quot;: true"))
        var user = try #require(try browser.user(uid))
        #expect(user["email"] == "ada@example.com")
        #expect(user["customAttributes"] == #"{"admin":true}"#)
        #expect(try emulator.client("signInWithPassword", ["email": "ada@example.com", "password": "secret123"]).status == 200)

        let here = "/emulator/ui/user?uid=\(uid)"
        let saved = try browser.submit(here, [
            ("action", "save"), ("displayName", "Ada Lovelace"), ("email", "ada@example.com"), ("phoneNumber", "+16505550101"),
            ("photoUrl", ""), ("password", ""), ("claims", #"{"role":"editor"}"#),
        ])
        #expect(saved.page.contains("Saved."))
        user = try #require(try browser.user(uid))
        #expect(user["displayName"] == "Ada Lovelace")
        #expect(user["phoneNumber"] == "+16505550101")
        #expect(user["customAttributes"] == #"{"role":"editor"}"#)
        // A refused edit says why and changes nothing.
        _ = try emulator.admin("accounts", ["email": "taken@example.com", "password": "secret123"])
        let refused = try browser.refused(here, [("action", "save"), ("displayName", "X"), ("email", "taken@example.com")])
        #expect(refused.contains("Another user already has this email. <code class=\"error-code\">EMAIL_EXISTS</code>"))
        #expect(refused.contains("value=\"taken@example.com\" aria-invalid=\"true\""))
        #expect(try browser.user(uid)?["displayName"] == "Ada Lovelace")

        let login = try emulator.client("signInWithPassword", ["email": "ada@example.com", "password": "secret123"])
        _ = try browser.submit(here, [("action", "disable")])
        #expect(try browser.user(uid)?["disabled"] == true)
        #expect(try emulator.client("signInWithPassword", ["email": "ada@example.com", "password": "secret123"]).errorMessage == "USER_DISABLED")
        #expect(try browser.page(here).contains(">Enable</button>"))
        _ = try browser.submit(here, [("action", "enable")])
        #expect(try browser.user(uid)?["disabled"] == nil)
        _ = try browser.submit(here, [("action", "verify-email")])
        #expect(try browser.user(uid)?["emailVerified"] == true)

        emulator.clock.advance(seconds: 5)
        let revoked = try browser.submit(here, [("action", "revoke")])
        #expect(revoked.page.contains("Revoked the user"))
        #expect(try browser.user(uid)?["validSince"] == .string(String(TestEmulator.start.secondsSinceEpoch + 5)))
        #expect(revoked.page.contains("validSince \(TestEmulator.start.secondsSinceEpoch + 5)"))
        #expect(try emulator.refresh(try #require(login["refreshToken"]?.stringValue)).errorMessage == "TOKEN_EXPIRED")

        let deleted = try browser.submit(here, [("action", "delete")])
        #expect(deleted.location.hasPrefix("/emulator/ui/users?"))
        #expect(try browser.user(uid) == nil)
    }

    @Test func appleUserWithHiddenEmailGetsARelayedSignInLink() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let created = try browser.submit("/emulator/ui/users/new", [
            ("provider", "apple.com"), ("email", "ada@example.com"), ("displayName", "Ada Lovelace"), ("hideEmail", "on"),
            ("emailVerified", "on"),
        ])
        let uid = try #require(Self.query(created.location, "uid"))
        let user = try #require(try browser.user(uid))
        let relayAddress = try #require(user["email"]?.stringValue)
        #expect(relayAddress.hasSuffix("@privaterelay.appleid.com"))
        #expect(user["displayName"] == "Ada Lovelace")
        #expect(user["providerUserInfo"]?.arrayValue?.map { $0["providerId"] } == ["apple.com"])
        #expect(created.page.contains("Apple relay → <span class=\"addr\">ada<wbr>@example.com</span>, forwarding"))
        // The same user an app gets: the relay address is the fake Apple's.
        let relay = try emulator.send("GET", "/emulator/v1/idp/apple.com/relay")["addresses"]?.arrayValue ?? []
        #expect(relay.map { $0["address"] } == [.string(relayAddress)])

        let sent = try browser.submit("/emulator/ui/user?uid=\(uid)", [
            ("action", "send-email"), ("requestType", "EMAIL_SIGNIN"), ("continueUrl", "https://app.example.com/done"),
        ])
        #expect(sent.page.contains("Sent EMAIL_SIGNIN to \(relayAddress)"))
        let outbox = try browser.page("/emulator/ui/outbox?to=\(relayAddress)")
        #expect(outbox.contains("<span class=\"badge relayed\">relayed</span>"))
        let message = try #require(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")["id"]?.stringValue)
        let shown = try browser.page("/emulator/ui/message?id=\(message)")
        #expect(shown.contains("forwarded to <strong id=\"forwarded-to\"><span class=\"addr\">ada<wbr>@example.com</span></strong>"))
        // A sandbox without scripts; its links may take the tab to the emulator's action page.
        #expect(shown.contains(
            "<iframe class=\"mail\" sandbox=\"allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox\" srcdoc=\"&lt;!DOCTYPE html&gt;"))
        #expect(shown.contains("&lt;base target=&quot;_top&quot;&gt;"))
        #expect(!shown.contains("allow-scripts"))
        #expect(shown.contains("<a href=\"http://localhost/emulator/action?mode=signIn"))
        #expect(shown.contains("<dd><span class=\"addr\">noreply<wbr>@\(TestEmulator.project).firebaseapp.com</span></dd>"))

        // Filters: another type shows nothing; the recipient filter finds it.
        #expect(try browser.page("/emulator/ui/outbox?type=PASSWORD_RESET").contains("No messages."))
        // Forwarding off: the next message bounces, with the relay's reason on its page.
        _ = try browser.submit("/emulator/ui/providers", [("action", "forwarding"), ("address", relayAddress), ("forwarding", "off")])
        _ = try browser.submit("/emulator/ui/user?uid=\(uid)", [("action", "send-email"), ("requestType", "EMAIL_SIGNIN")])
        let bounced = try #require(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest?status=bounced")["id"]?.stringValue)
        let bouncedPage = try browser.page("/emulator/ui/message?id=\(bounced)")
        #expect(bouncedPage.contains("<span class=\"badge bounced\">bounced</span>"))
        #expect(bouncedPage.contains("<span id=\"delivery-reason\">Forwarding off:"))

        let cleared = try browser.submit("/emulator/ui/outbox", [("action", "delete-all")])
        #expect(cleared.page.contains("No messages."))
    }

    @Test func facebookAndPhoneUsersAreFoundBySearch() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let facebook = try browser.submit("/emulator/ui/users/new", [
            ("provider", "facebook.com"), ("email", "fb@example.com"), ("displayName", "Fay Book"), ("sub", "1234567890"),
            ("emailVerified", "on"),
        ])
        let facebookId = try #require(Self.query(facebook.location, "uid"))
        #expect(try browser.user(facebookId)?["providerUserInfo"]?.arrayValue?.first?["rawId"] == "1234567890")
        let phone = try browser.submit("/emulator/ui/users/new", [("provider", "phone"), ("phoneNumber", "+16505550199")])
        let phoneId = try #require(Self.query(phone.location, "uid"))

        let byProviderUid = try browser.page("/emulator/ui/users?q=4567")
        #expect(byProviderUid.contains(facebookId))
        #expect(!byProviderUid.contains(phoneId))
        let byPhone = try browser.page("/emulator/ui/users?q=%2B1650555")
        #expect(byPhone.contains(phoneId))
        #expect(!byPhone.contains(facebookId))
        #expect(try browser.page("/emulator/ui/users?q=FB%40EXAMPLE").contains(facebookId))
        #expect(try browser.page("/emulator/ui/users?q=100%25").contains("No user matches."))
        // A refused create (no phone for a phone user) says why, beside the phone field.
        let refused = try browser.refused("/emulator/ui/users/new", [("action", "create"), ("provider", "phone")])
        #expect(refused.contains(
            "name=\"phoneNumber\" value=\"\" placeholder=\"+16505551234\" aria-invalid=\"true\"><span class=\"field-error\" role=\"alert\">Enter a phone number: a phone user needs one."))
    }

    @Test func usersArePagedNewestFirst() throws {
        let emulator = try TestEmulator()
        // 120 users a second apart, and two more in the same millisecond (the uid breaks the tie).
        try emulator.emulator.environment.write(in: UserScope(projectId: TestEmulator.project)) { transaction in
            for index in 0..<122 {
                let second = min(index, 119)
                var user = UserRecord(
                    localId: "u" + String(index).leftPadded(to: 3), scope: transaction.scope,
                    createdAt: transaction.now.adding(seconds: Int64(second)))
                user.email = "person\(index)@example.com"
                try transaction.users.save(&user)
            }
        }
        let browser = Browser(emulator: emulator)
        var seen: [String] = []
        var path = "/emulator/ui/users"
        for _ in 0..<4 {
            let page = try browser.page(path)
            seen += page.components(separatedBy: "href=\"/emulator/ui/user?uid=").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            guard let next = page.range(of: "\" rel=\"next\"")?.lowerBound else { break }
            let before = page[..<next]
            let start = try #require(before.range(of: "href=\"", options: .backwards)).upperBound
            path = String(before[start...]).replacingOccurrences(of: "&amp;", with: "&")
        }
        let expected = ["u121", "u120", "u119"] + (0..<119).reversed().map { "u" + String($0).leftPadded(to: 3) }
        #expect(seen == expected)
        let first = try browser.page("/emulator/ui/users")
        #expect(first.contains("122 users in this project, newest first"))
        #expect(first.contains("<th>Last sign-in</th>"))
        let search = try browser.page("/emulator/ui/users?q=u11")
        #expect(search.components(separatedBy: "href=\"/emulator/ui/user?uid=").count - 1 == 10)
        #expect(try browser.get("/emulator/ui/users?after=garbage").status == 200)
    }

    @Test func postsWithoutAValidTokenOrFromAnotherSiteAreRefused() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let fields = [("provider", "password"), ("email", "x@example.com"), ("password", "secret123")]
        let noToken = try browser.post("/emulator/ui/users/new", fields + [("csrf", "")])
        #expect(noToken.status == 403)
        #expect(noToken.text.contains("security token"))
        let forged = try browser.post("/emulator/ui/users/new", fields + [("csrf", "1700000000.AAAA")])
        #expect(forged.status == 403)
        let crossSite = try browser.post("/emulator/ui/users/new", fields, headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        #expect(crossSite.text.contains("another site"))
        let sameSite = try browser.post("/emulator/ui/users/new", fields, headers: [("Sec-Fetch-Site", "same-site")])
        #expect(sameSite.status == 403)
        let foreignOrigin = try browser.post("/emulator/ui/users/new", fields, headers: [("Origin", "http://evil.example")])
        #expect(foreignOrigin.status == 403)
        #expect(foreignOrigin.text.contains("http://evil.example"))
        let nullOrigin = try browser.post("/emulator/ui/clock", [("amount", "1"), ("unit", "days")], headers: [("Origin", "null")])
        #expect(nullOrigin.status == 403)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "0")
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"]?.stringValue == TestEmulator.start.rfc3339)
        // The same form from the console itself goes through.
        #expect(try browser.post("/emulator/ui/users/new", fields).status == 303)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")
    }

    @Test func tokensAreSignedAndExpire() {
        let now = ConsoleSecurity.wallClockSeconds()
        let token = ConsoleSecurity.token(now: now)
        #expect(ConsoleSecurity.isValid(token, now: now))
        #expect(ConsoleSecurity.isValid(token, now: now + ConsoleSecurity.tokenLifetimeSeconds))
        #expect(!ConsoleSecurity.isValid(token, now: now + ConsoleSecurity.tokenLifetimeSeconds + 1))
        #expect(!ConsoleSecurity.isValid(token.replacingOccurrences(of: "\(now).", with: "\(now + 1)."), now: now))
        #expect(!ConsoleSecurity.isValid(nil, now: now))
    }

    @Test func everyValueIsEscaped() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let hostile = "<script>alert(1)</script>\"'&"
        _ = try emulator.admin("accounts", [
            "localId": "evil\"><script>x</script>", "displayName": .string(hostile), "email": "evil@example.com",
        ])
        _ = try emulator.admin("accounts:update", ["localId": "evil\"><script>x</script>", "customAttributes": #"{"note":"</pre><script>y</script>"}"#])
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"
        let list = Self.withoutConsoleScript(try browser.page("/emulator/ui/users"))
        #expect(list.contains(escaped))
        #expect(!list.contains("<script"))
        let detail = Self.withoutConsoleScript(try browser.page("/emulator/ui/user?uid=\(URIComponent.encode("evil\"><script>x</script>"))"))
        #expect(detail.contains(escaped))
        #expect(!detail.contains("<script"))
        #expect(detail.contains("&lt;/pre&gt;&lt;script&gt;y&lt;/script&gt;"))
        // A flash message in the query is text, never markup.
        let flashed = Self.withoutConsoleScript(try browser.page("/emulator/ui/clock?flash=%3Cscript%3Ez%3C%2Fscript%3E&error=%3Cb%3E"))
        #expect(flashed.contains("role=\"status\">&lt;script&gt;z&lt;/script&gt;</p>"))
        #expect(!flashed.contains("<script") && !flashed.contains("<b>"))
        // A hostile display name in an email's HTML stays inside the sandboxed frame's escaped srcdoc.
        _ = try browser.submit("/emulator/ui/user?uid=\(URIComponent.encode("evil\"><script>x</script>"))", [
            ("action", "send-email"), ("requestType", "PASSWORD_RESET"),
        ])
        let message = try #require(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")["id"]?.stringValue)
        for view in ["html", "text", "headers", "raw"] {
            let shown = Self.withoutConsoleScript(try browser.page("/emulator/ui/message?id=\(message)&view=\(view)"))
            #expect(!shown.contains("<script"), "\(view)")
            if view == "text" || view == "raw" { #expect(shown.contains("&lt;script&gt;alert(1)"), "\(view)") }
        }
        // The outbox's list shows the preview escaped too.
        #expect(!Self.withoutConsoleScript(try browser.page("/emulator/ui/outbox")).contains("<script"))
    }

    @Test func providersPageMintsRotatesAndSetsSenders() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let token = try Self.token(in: try browser.page("/emulator/ui/providers"))
        let minted = try browser.post("/emulator/ui/providers/mint", [
            ("csrf", token), ("provider", "apple.com"), ("email", "ada@example.com"), ("hideEmail", "on"), ("nonce", "raw-nonce"),
            ("emailVerified", "on"),
        ])
        #expect(minted.status == 200)
        let postBodyMarker = "id=\"minted-post-body\">providerId=apple.com&amp;id_token="
        #expect(minted.text.contains(postBodyMarker))
        #expect(minted.text.contains("&amp;nonce=raw-nonce</textarea>"))
        // The shown postBody signs in.
        let start = try #require(minted.text.range(of: "id=\"minted-post-body\">")?.upperBound)
        let postBody = String(minted.text[start...].prefix { $0 != "<" }).replacingOccurrences(of: "&amp;", with: "&")
        let signIn = try emulator.client("signInWithIdp", ["requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true])
        #expect(signIn.status == 200)
        #expect(signIn["email"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)

        let page = try browser.page("/emulator/ui/providers")
        let kid = try #require(try emulator.send("GET", "/emulator/v1/idp/apple.com/jwks")["keys"]?.arrayValue?.first?["kid"]?.stringValue)
        #expect(page.contains("<td class=\"mono\">\(kid)</td><td>RS256</td><td><span class=\"badge active\">active</span>"))
        #expect(page.contains("ada@example.com <span class=\"badge\">hides email</span>") || page.contains("hides email"))
        #expect(page.contains("Stop forwarding"))

        let rotated = try browser.submit("/emulator/ui/providers", [("action", "rotate"), ("provider", "apple.com")])
        let newKid = try #require(try emulator.send("GET", "/emulator/v1/idp/apple.com/jwks")["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue }.first { $0 != kid })
        #expect(rotated.page.contains("new kid \(newKid)"))
        #expect(rotated.page.contains("<td class=\"mono\">\(kid)</td><td>RS256</td><td><span class=\"badge\">retired"))

        let senders = try browser.submit("/emulator/ui/providers", [("action", "senders"), ("senders", "a@example.com\nb@example.com\n")])
        #expect(senders.page.contains("Saved 2 registered senders."))
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/privateRelay")["registeredSenders"] == ["a@example.com", "b@example.com"])
        let bad = try browser.refused("/emulator/ui/providers", [("action", "senders"), ("senders", "not an email")])
        #expect(bad.contains("not an email is neither an email address nor a domain written @example.com."))
        #expect(bad.contains("aria-invalid=\"true\">not an email</textarea>"))
    }

    @Test func clockAdvancesFromItsPage() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        #expect(try browser.page("/emulator/ui/clock").contains("<strong id=\"clock-now\">\(TestEmulator.start.rfc3339)</strong>"))
        let advanced = try browser.submit("/emulator/ui/clock", [("amount", "2"), ("unit", "hours")])
        let later = TestEmulator.start.adding(seconds: 7200).rfc3339
        #expect(advanced.page.contains("<strong id=\"clock-now\">\(later)</strong>"))
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"]?.stringValue == later)
        let refused = try browser.refused("/emulator/ui/clock", [("action", "advance"), ("amount", "-1"), ("unit", "seconds")])
        #expect(refused.contains("name=\"amount\" value=\"-1\""))
        #expect(refused.contains("<span class=\"field-error\" role=\"alert\">The clock only moves forward"))
    }

    @Test func tenantsAreSeparate() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let created = try browser.submit("/emulator/ui/users/new?tenant=t-1", [
            ("provider", "password"), ("email", "tenant@example.com"), ("password", "secret123"),
        ])
        #expect(created.location.contains("tenant=t-1"))
        let uid = try #require(Self.query(created.location, "uid"))
        #expect(try emulator.admin("accounts:lookup", ["localId": [.string(uid)]], tenant: "t-1")["users"]?.arrayValue?.count == 1)
        #expect(try browser.user(uid) == nil)
        #expect(try browser.page("/emulator/ui/users?tenant=t-1").contains(uid))
        #expect(!(try browser.page("/emulator/ui/users").contains(uid)))
    }
}
