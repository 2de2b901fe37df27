import Foundation
import HTML
import HTTPTestSupport
import JOSE
import JSON
import Testing

@testable import AuthEmulator

/// The console as a QA team's workbench, over a real socket: the outbox as an inbox (counts,
/// paging past 200, previews, bounce reasons, the message's four views), users newest first and
/// found by provider, a confirmed delete-all, the decoded mint result, the clock in words with its
/// reset, and the settings page; every new form refuses a post without its token or from another site.
@Suite struct ConsoleWorkbenchTests {
    typealias Browser = ConsoleTests.Browser

    /// `count` messages straight into the store, oldest first: every tenth bounced, every
    /// seventh relayed, the rest delivered; every fifth in tenant `t-1`.
    static func fillOutbox(_ emulator: TestEmulator, count: Int) throws {
        try emulator.emulator.environment.store.write { store in
            for index in 0..<count {
                let delivery: Delivery = index % 10 == 9
                    ? Delivery(status: .bounced, reason: "Forwarding off: message \(index) bounced.")
                    : index % 7 == 6 ? Delivery(status: .relayed, forwardedTo: "real\(index)@example.com") : Delivery(status: .delivered)
                _ = try store.outbox.insert(OutboxMessage(
                    scope: UserScope(projectId: TestEmulator.project, tenantId: index % 5 == 4 ? "t-1" : nil),
                    from: "noreply@example.com", to: "person\(index)@example.com", subject: "Reset your password",
                    text: "Hello Person \(index),\n\nFollow this link: http://localhost/emulator/action?oobCode=code\(index)",
                    html: "<p>Hello Person \(index)</p>", requestType: "PASSWORD_RESET", oobCode: "code\(index)",
                    oobLink: "http://localhost/emulator/action?oobCode=code\(index)", appLink: nil, continueUrl: nil,
                    createdAt: TestEmulator.start.adding(seconds: Int64(index)), delivery: delivery))
            }
        }
    }

    static func ids(in page: String) -> [Int] {
        page.components(separatedBy: "<li data-id=\"").dropFirst().compactMap { Int($0.prefix { $0 != "\"" }) }
    }

    /// The `href` of the page's `rel="next"` link, unescaped.
    static func nextLink(in page: String) -> String? {
        guard let end = page.range(of: "\" rel=\"next\"")?.lowerBound else { return nil }
        let before = page[..<end]
        guard let start = before.range(of: "href=\"", options: .backwards)?.upperBound else { return nil }
        return String(before[start...]).replacingOccurrences(of: "&amp;", with: "&")
    }

    static func count(_ status: String, in page: String) -> Int? {
        let marker = "data-status=\"\(status)\">"
        guard let start = page.range(of: marker)?.upperBound else { return nil }
        let rest = page[start...]
        guard let number = rest.range(of: "<span class=\"count\">")?.upperBound else { return nil }
        return Int(rest[number...].prefix { $0.isNumber })
    }

    @Test func outboxPagesPast200NewestFirstWithCountsPerStatus() throws {
        let emulator = try TestEmulator()
        try Self.fillOutbox(emulator, count: 230)
        let browser = Browser(emulator: emulator)
        let first = try browser.page("/emulator/ui/outbox")
        // 0…229: every tenth (index 9, 19, …) bounced = 23; every seventh not bounced relayed.
        let bounced = (0..<230).filter { $0 % 10 == 9 }.count
        let relayed = (0..<230).filter { $0 % 10 != 9 && $0 % 7 == 6 }.count
        #expect(Self.count("all", in: first) == 230)
        #expect(Self.count("bounced", in: first) == bounced)
        #expect(Self.count("relayed", in: first) == relayed)
        #expect(Self.count("delivered", in: first) == 230 - bounced - relayed)
        #expect(first.contains("50 of 230 shown"))
        // A preview line, the bounce's reason and the tenant, on the rows themselves.
        #expect(first.contains("<div class=\"preview\">Hello Person 229, Follow this link: http://localhost/emulator/action?oobCode=code229</div>"))
        #expect(first.contains("<div class=\"reason\">Bounced: Forwarding off: message 229 bounced.</div>"))
        #expect(first.contains("<span class=\"badge tenant\">tenant t-1</span>"))
        #expect(first.contains("<span class=\"relay\">→ real223@example.com</span>"))
        // The live script refreshes only the first page.
        #expect(ConsoleTests.withoutConsoleScript(first).contains("<div id=\"inbox\" data-live-key=\""))

        var seen: [Int] = []
        var page = first
        while true {
            seen += Self.ids(in: page)
            guard let next = Self.nextLink(in: page) else { break }
            page = try browser.page(next)
            #expect(!ConsoleTests.withoutConsoleScript(page).contains("data-live-key"), "an older page stays as it is")
        }
        #expect(seen.count == 230)
        #expect(seen == seen.sorted(by: >))
        #expect(Set(seen).count == 230)

        // A status tab narrows the list, and its pages keep the status.
        let bouncedPage = try browser.page("/emulator/ui/outbox?status=bounced")
        #expect(Self.ids(in: bouncedPage).count == bounced)
        #expect(!bouncedPage.contains("badge delivered"))
        #expect(bouncedPage.contains("data-status=\"bounced\" aria-current=\"page\"") || bouncedPage.contains("aria-current=\"page\" data-status=\"bounced\""))
        // A tenant's outbox has only its messages, and its counts are its own.
        let tenantPage = try browser.page("/emulator/ui/outbox?tenant=t-1")
        #expect(Self.count("all", in: tenantPage) == 46)
        #expect(Self.ids(in: tenantPage).count == 46)
    }

    static func attribute(_ name: String, in page: String) throws -> String {
        let start = try #require(page.range(of: " \(name)=\"")?.upperBound)
        return String(page[start...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func theInboxLearnsOfANewMessageFromASuspendedRequest() async throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["email": "ada@example.com", "password": "secret123"])
        try Self.fillOutbox(emulator, count: 3)
        let browser = Browser(emulator: emulator)
        let page = ConsoleTests.withoutConsoleScript(try browser.page("/emulator/ui/outbox?type=PASSWORD_RESET"))
        let key = try Self.attribute("data-live-key", in: page)
        let source = try Self.attribute("data-live-src", in: page)
        #expect(source == "/emulator/ui/outbox/changes?type=PASSWORD_RESET&waitSeconds=25")
        // A key out of date is answered at once with the current one.
        let stale = try browser.get(source + "&key=old")
        #expect(stale.status == 200)
        #expect(try JSONValue(parsing: stale.body)["key"]?.stringValue == key)
        // Asked for no wait (or none given), the current key is answered at once too; a wait
        // past the page's own 25 s is refused.
        for noWait in ["&waitSeconds=0", ""] {
            let current = try browser.get("/emulator/ui/outbox/changes?type=PASSWORD_RESET&key=\(key)\(noWait)")
            #expect(try JSONValue(parsing: current.body)["key"]?.stringValue == key)
        }
        #expect(emulator.emulator.environment.outboxWaiters.count == 0)
        for badWait in ["26", "-1", "soon", "nan"] {
            let refused = try browser.get("/emulator/ui/outbox/changes?key=\(key)&waitSeconds=\(badWait)")
            #expect(refused.status == 400, "waitSeconds=\(badWait): \(refused.status)")
            #expect(refused.text.contains("waitSeconds must be a number from 0 to 25"))
        }
        // The current key waits, with no worker held, until a message arrives.
        let waiting = Task.detached { try browser.get(source + "&key=" + key).body }
        // Polled, not slept: on a loaded machine the request may take a while to arrive.
        for _ in 0..<200 where emulator.emulator.environment.outboxWaiters.count == 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(emulator.emulator.environment.outboxWaiters.count == 1)
        _ = try emulator.admin("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com"])
        let answer = try await waiting.value
        let newKey = try #require(try JSONValue(parsing: answer)["key"]?.stringValue)
        #expect(newKey != key)
        #expect(newKey.hasPrefix("4-"))
        #expect(emulator.emulator.environment.outboxWaiters.count == 0)
    }

    @Test func aMessageHasHTMLTextHeadersAndRawSourceViews() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["email": "ada@example.com", "password": "secret123", "displayName": "Ada"])
        _ = try emulator.admin("accounts:sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": "ada@example.com", "continueUrl": "https://app.example.com/done",
            "canHandleCodeInApp": true,
        ])
        let latest = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")
        let id = try #require(latest["id"]?.stringValue)
        let oobLink = try #require(latest["oobLink"]?.stringValue)
        let appLink = try #require(latest["appLink"]?.stringValue)
        #expect(appLink != oobLink)
        let browser = Browser(emulator: emulator)

        let html = try browser.page("/emulator/ui/message?id=\(id)")
        #expect(html.contains("view=html\" aria-current=\"page\">HTML</a>"))
        // The app link in the email opens the emulator's own action page from the console.
        let srcdocStart = try #require(html.range(of: "srcdoc=\"")?.upperBound)
        let srcdoc = String(html[srcdocStart...].prefix { $0 != "\"" })
        #expect(srcdoc.contains("href=&quot;\(HTML.escape(HTML.escape(oobLink)))&quot;"))
        #expect(!srcdoc.contains(HTML.escape(HTML.escape(appLink))))
        let text = try browser.page("/emulator/ui/message?id=\(id)&view=text")
        #expect(text.contains("<a href=\"\(HTML.escape(oobLink))\">\(HTML.escape(oobLink))</a>"))
        let headers = try browser.page("/emulator/ui/message?id=\(id)&view=headers")
        #expect(headers.contains("<th scope=\"row\" class=\"mono\">Message-ID</th>"))
        #expect(headers.contains("<td class=\"mono\">multipart/alternative; boundary=&quot;=_auth-emulator-\(id)&quot;</td>"))
        #expect(headers.contains("<td class=\"mono\">EMAIL_SIGNIN</td>"))
        // The raw source is the .eml download's, byte for byte: one renderer.
        let raw = try browser.page("/emulator/ui/message?id=\(id)&view=raw")
        let eml = try browser.get("/emulator/v1/projects/\(TestEmulator.project)/messages/\(id).eml").text
        #expect(eml.hasPrefix("Date: Tue, 14 Nov 2023 22:13:20 +0000\r\nFrom: noreply@\(TestEmulator.project).firebaseapp.com\r\nTo: ada@example.com\r\n"))
        #expect(raw.contains("<pre id=\"raw-source\">\(HTML.escape(eml))</pre>"))
        // An unknown view falls back to the first; an SMS has no HTML view.
        #expect(try browser.page("/emulator/ui/message?id=\(id)&view=nope").contains("view=html\" aria-current=\"page\""))
    }

    @Test func usersAreFoundByProviderIdAndShowTheirRelay() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        // One a second, so that newest first is a fixed order.
        func create(_ fields: [(String, String)]) throws -> String {
            emulator.clock.advance(seconds: 1)
            return try #require(Self.uid(try browser.submit("/emulator/ui/users/new", fields).location))
        }
        let apple = try create([("provider", "apple.com"), ("email", "ada@example.com"), ("hideEmail", "on"), ("emailVerified", "on")])
        let facebook = try create([("provider", "facebook.com"), ("email", "fb@example.com"), ("emailVerified", "on")])
        let password = try create([("provider", "password"), ("email", "pw@example.com"), ("password", "secret123")])
        let phone = try create([("provider", "phone"), ("phoneNumber", "+16505550199")])
        let everyone = [apple, facebook, password, phone]
        func found(_ query: String) throws -> Set<String> {
            let page = try browser.page("/emulator/ui/users?q=\(query)")
            return Set(everyone.filter { page.contains(">\($0)</a>") })
        }
        #expect(try found("apple.com") == [apple])
        #expect(try found("FACEBOOK") == [facebook])
        #expect(try found("password") == [password])
        #expect(try found("phone") == [phone])

        // Newest first, with provider marks, the relay's forwarding state, and last sign-in.
        var list = try browser.page("/emulator/ui/users")
        let positions = everyone.compactMap { list.range(of: ">\($0)</a>")?.lowerBound }
        #expect(positions.count == 4)
        #expect(positions == positions.sorted(by: >), "the last created comes first")
        #expect(list.contains("<span class=\"provider apple\" title=\"apple.com\"><span class=\"mark\" aria-hidden=\"true\">A</span>apple.com</span>"))
        #expect(list.contains("Apple relay → <span class=\"addr\">ada<wbr>@example.com</span> <span class=\"badge active\">forwarding</span>"))
        #expect(list.contains("<th>Last sign-in</th>"))
        let relay = try #require(try browser.user(apple)?["email"]?.stringValue)
        _ = try browser.submit("/emulator/ui/providers", [("action", "forwarding"), ("address", relay), ("forwarding", "off")])
        list = try browser.page("/emulator/ui/users")
        #expect(list.contains("Apple relay → <span class=\"addr\">ada<wbr>@example.com</span> <span class=\"badge bounced\">forwarding off</span>"))
    }

    static func uid(_ location: String) -> String? { ConsoleTests.query(location, "uid") }

    @Test func deletingEveryUserNeedsItsConfirmationPage() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        for index in 0..<3 { _ = try emulator.admin("accounts", ["email": .string("p\(index)@example.com"), "password": "secret123"]) }
        let list = try browser.page("/emulator/ui/users")
        #expect(list.contains("href=\"/emulator/ui/users/delete-all\">Delete every user of this project…</a>"))
        #expect(!list.contains("value=\"delete-all\""))
        // A post without the confirmation deletes nothing and says why.
        let unconfirmed = try browser.submit("/emulator/ui/users", [("action", "delete-all")])
        #expect(unconfirmed.page.contains("needs its confirmation page"))
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "3")
        let confirm = try browser.page("/emulator/ui/users/delete-all")
        #expect(confirm.contains("This deletes <strong>3 users</strong> of project \(TestEmulator.project)"))
        #expect(confirm.contains(">Yes, delete 3 users</button>"))
        let token = try ConsoleTests.token(in: confirm)
        let done = try browser.submit("/emulator/ui/users", [("csrf", token), ("action", "delete-all"), ("confirm", "yes")])
        #expect(done.page.contains("Deleted every user."))
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "0")
    }

    @Test func theMintAnswerShowsTheDecodedTokenWithTheNonceAsCarried() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let token = try ConsoleTests.token(in: try browser.page("/emulator/ui/providers"))
        let minted = try browser.post("/emulator/ui/providers/mint", [
            ("csrf", token), ("provider", "apple.com"), ("email", "ada@example.com"), ("nonce", "raw-nonce"), ("emailVerified", "on"),
        ])
        #expect(minted.status == 200)
        let page = minted.text
        let start = try #require(page.range(of: "id=\"minted-id-token\">")?.upperBound)
        let idToken = String(page[start...].prefix { $0 != "<" })
        let claims = try #require(ConsoleProviderPages.DecodedJWT(idToken)?.claims)
        let nonce = try #require(claims["nonce"]?.stringValue)
        // Apple carries the SHA-256 of the raw nonce, in hex.
        #expect(nonce.count == 64 && nonce != "raw-nonce")
        #expect(page.contains("<code class=\"token\" id=\"minted-nonce\">\(nonce)</code> <span class=\"muted\">(SHA-256 of the raw nonce <code>raw-nonce</code>"))
        #expect(page.contains("<pre class=\"claims\" id=\"minted-claims\">"))
        #expect(page.contains("&quot;nonce&quot;"))
        #expect(page.contains("&quot;iss&quot;"))
        #expect(page.contains("<pre class=\"claims\" id=\"minted-header\">"))
        #expect(page.contains("&quot;kid&quot;"))
        for id in ["minted-post-body", "minted-id-token", "minted-access-token", "minted-code"] {
            #expect(page.contains("<button type=\"button\" class=\"copy\" data-copy=\"\(id)\" hidden>Copy</button>"), "\(id)")
        }
        // Sections with anchors, reached from the page's own menu.
        for anchor in ["mint", "providers", "relay", "senders", "revocations"] {
            #expect(page.contains("<a href=\"#\(anchor)\">"), "\(anchor)")
            #expect(page.contains("<section id=\"\(anchor)\">"), "\(anchor)")
        }
        // Google carries the raw nonce as given.
        let google = try browser.post("/emulator/ui/providers/mint", [("csrf", token), ("provider", "google.com"), ("nonce", "raw-nonce")])
        #expect(google.text.contains("<code class=\"token\" id=\"minted-nonce\">raw-nonce</code> <span class=\"muted\">(the raw nonce, as this provider carries it)"))
    }

    @Test func theClockSaysHowFarAheadInWordsAndResets() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        #expect(try browser.page("/emulator/ui/clock").contains("id=\"clock-offset\">in step with real time</span>"))
        #expect(!(try browser.page("/emulator/ui/clock").contains("Reset to real time")))
        let advanced = try browser.submit("/emulator/ui/clock", [("action", "advance"), ("amount", "395"), ("unit", "minutes")])
        #expect(advanced.page.contains(">6 h 35 min ahead</span>"))
        #expect(advanced.page.contains("6 h 35 min ahead."))
        let reset = try browser.submit("/emulator/ui/clock", [("action", "reset")], tokenFrom: "/emulator/ui/clock")
        #expect(reset.page.contains("Reset the clock to real time: it is now \(TestEmulator.start.rfc3339)."))
        #expect(reset.page.contains("in step with real time"))
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"]?.stringValue == TestEmulator.start.rfc3339)
        #expect(try emulator.emulator.environment.store.read { try $0.emulatorState.clockOffset() } == 0)
    }

    @Test func durationsReadAsPeopleSayThem() {
        #expect(ConsoleLayout.duration(milliseconds: 0) == "0 s")
        #expect(ConsoleLayout.duration(milliseconds: 500) == "0.5 s")
        #expect(ConsoleLayout.duration(milliseconds: 42_000) == "42 s")
        #expect(ConsoleLayout.duration(milliseconds: 90_000) == "1 min 30 s")
        #expect(ConsoleLayout.duration(milliseconds: 3_600_000) == "1 h")
        #expect(ConsoleLayout.duration(milliseconds: 23_703_500) == "6 h 35 min")
        #expect(ConsoleLayout.duration(milliseconds: 2 * 86_400_000 + 3 * 3_600_000 + 59_000) == "2 d 3 h")
    }

    @Test func settingsSetWhatTheAPICanSet() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let config = "/emulator/v1/projects/\(TestEmulator.project)/config"
        let on = try browser.submit("/emulator/ui/settings", [("action", "sign-in"), ("allowDuplicateEmails", "on")], tokenFrom: "/emulator/ui/settings")
        #expect(on.page.contains("Saved the sign-in settings."))
        #expect(on.page.contains("name=\"allowDuplicateEmails\" checked"))
        #expect(try emulator.send("GET", config)["signIn"]?["allowDuplicateEmails"] == true)
        _ = try browser.submit("/emulator/ui/settings", [("action", "sign-in")], tokenFrom: "/emulator/ui/settings")
        #expect(try emulator.send("GET", config)["signIn"]?["allowDuplicateEmails"] == false)

        let numbers = try browser.submit("/emulator/ui/settings", [
            ("action", "test-phone-numbers"), ("numbers", "+16505550101 123456\r\n+16505550102=654321\r\n\r\n"),
        ], tokenFrom: "/emulator/ui/settings")
        #expect(numbers.page.contains("Saved 2 test phone numbers."))
        #expect(numbers.page.contains("+16505550101 123456\n+16505550102 654321</textarea>"))
        #expect(try emulator.send("GET", config)["signIn"]?["phoneNumber"]?["testPhoneNumbers"]
            == ["+16505550101": "123456", "+16505550102": "654321"])
        let badCode = try browser.refused("/emulator/ui/settings", [("action", "test-phone-numbers"), ("numbers", "+16505550101 12")])
        #expect(badCode.contains("The code of +16505550101 must be six digits. <code class=\"error-code\">INVALID_TEST_PHONE_NUMBER_CODE</code>"))
        #expect(badCode.contains(">+16505550101 12</textarea>"))
        let badLine = try browser.refused("/emulator/ui/settings", [("action", "test-phone-numbers"), ("numbers", "+16505550101")])
        #expect(badLine.contains("on one line"))
        #expect(try emulator.send("GET", config)["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue?.members.count == 2)

        let tenant = try browser.submit("/emulator/ui/settings", [
            ("action", "create-tenant"), ("displayName", "Team <A>"), ("allowPasswordSignup", "on"),
        ], tokenFrom: "/emulator/ui/settings")
        let listed = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants", headers: [("Authorization", "Bearer owner")])
        let created = try #require(listed["tenants"]?.arrayValue?.first)
        let tenantId = try #require(created["tenantId"]?.stringValue)
        #expect(created["displayName"] == "Team <A>")
        #expect(created["allowPasswordSignup"] == true)
        #expect(created["enableAnonymousUser"] == false)
        #expect(tenant.page.contains("Created tenant \(tenantId) (Team &lt;A&gt;)."))
        #expect(tenant.page.contains("<a href=\"/emulator/ui/users?tenant=\(tenantId)\">\(tenantId)</a>"))
        #expect(tenant.page.contains("<td>password</td>"))
        let unnamed = try browser.refused("/emulator/ui/settings", [("action", "create-tenant"), ("displayName", " ")])
        #expect(unnamed.contains("Enter a display name: a tenant needs one."))

        // The relay's senders, from the settings page, come back to it.
        let senders = try browser.submit(
            "/emulator/ui/providers?back=settings", [("action", "senders"), ("senders", "a@example.com")], tokenFrom: "/emulator/ui/settings")
        #expect(senders.location.hasPrefix("/emulator/ui/settings?"))
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/privateRelay")["registeredSenders"] == ["a@example.com"])
    }

    @Test func everyNewFormRefusesAPostWithoutItsTokenOrFromAnotherSite() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        _ = try emulator.admin("accounts", ["email": "kept@example.com", "password": "secret123"])
        _ = try emulator.send("POST", "/emulator/v1/clock:advance", json: ["seconds": 60])
        let forms: [(String, [(String, String)])] = [
            ("/emulator/ui/settings", [("action", "sign-in"), ("allowDuplicateEmails", "on")]),
            ("/emulator/ui/settings", [("action", "test-phone-numbers"), ("numbers", "+16505550101 123456")]),
            ("/emulator/ui/settings", [("action", "create-tenant"), ("displayName", "Evil")]),
            ("/emulator/ui/clock", [("action", "reset")]),
            ("/emulator/ui/users", [("action", "delete-all"), ("confirm", "yes")]),
            ("/emulator/ui/providers?back=settings", [("action", "senders"), ("senders", "evil@example.com")]),
        ]
        for (path, fields) in forms {
            #expect(try browser.post(path, fields + [("csrf", "")]).status == 403, "\(path) without a token")
            #expect(try browser.post(path, fields, headers: [("Sec-Fetch-Site", "cross-site")]).status == 403, "\(path) cross-site")
            #expect(try browser.post(path, fields, headers: [("Origin", "http://evil.example")]).status == 403, "\(path) foreign origin")
        }
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/config")["signIn"]?["allowDuplicateEmails"] == false)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/config")["signIn"]?["phoneNumber"]?["testPhoneNumbers"] == nil)
        let tenants = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants", headers: [("Authorization", "Bearer owner")])
        #expect(tenants["tenants"]?.arrayValue?.isEmpty != false)
        #expect(emulator.emulator.environment.clock.offset == 60_000)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/privateRelay")["registeredSenders"]
            == [.string("noreply@\(TestEmulator.project).firebaseapp.com")])
    }
}
