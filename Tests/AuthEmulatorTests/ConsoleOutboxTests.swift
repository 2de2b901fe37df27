import Foundation
import HTML
import HTTPTestSupport
import JSON
import Testing

@testable import AuthEmulator

/// The console's outbox on a second look, over a real socket: the sender, an attachment mark, a
/// `.eml` and a delete button on every row, free-text search, the chosen message beside the list,
/// attachments to download, a bounced message marked as mail the user never received, no "no
/// tenant" pill in a project without tenants, and one RFC 5322 renderer.
@Suite struct ConsoleOutboxTests {
    typealias Browser = ConsoleTests.Browser

    /// The app's own mail as the SMTP listener stores it: `raw` and the details read from it.
    static func storeAppMail(_ emulator: TestEmulator, raw: String, to: String, status: Delivery.Status = .delivered) throws -> Int64 {
        let bytes = Array(raw.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let details = AppMailDetails(json: [
            "envelope": ["from": "receipts@shop.example", "to": [.string(to)]],
            "headers": ["from": "Shop <receipts@shop.example>", "to": [.string(to)], "cc": [], "messageId": "<1@shop.example>"],
            "attachments": [
                ["filename": "receipt \"1234\".pdf", "contentType": "application/pdf", "size": 13, "disposition": "attachment"],
                ["filename": "page.html", "contentType": "text/html", "size": 21, "disposition": "attachment"],
            ],
            "rawSize": .int(Int64(bytes.count)),
        ])
        return try emulator.emulator.environment.store.write { store in
            let rawId = try store.outbox.insertRawSource(bytes)
            return try store.outbox.insert(OutboxMessage(
                scope: UserScope(projectId: TestEmulator.project), from: "receipts@shop.example", to: to, subject: "Your receipt",
                text: "Thanks for your order.", html: "<p>Thanks for your <b>order</b>.</p>", requestType: "", oobCode: nil,
                oobLink: nil, appLink: nil, continueUrl: nil, createdAt: TestEmulator.start,
                delivery: status == .bounced ? Delivery(status: .bounced, reason: "Forwarding off: test.") : Delivery(status: status),
                source: .smtp, mailDetails: details, rawSourceId: rawId)).id
        }
    }

    static let receipt = """
        From: Shop <receipts@shop.example>
        To: buyer@example.com
        Subject: Your receipt
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b1"

        --b1
        Content-Type: text/plain; charset=utf-8

        Thanks for your order.
        --b1
        Content-Type: application/pdf; name="receipt.pdf"
        Content-Disposition: attachment; filename="receipt \\"1234\\".pdf"
        Content-Transfer-Encoding: base64

        JVBERi0xLjQgZmFrZQ==
        --b1
        Content-Type: text/html
        Content-Disposition: attachment; filename="page.html"

        <script>x()</script>
        --b1--

        """

    static func sendReset(_ emulator: TestEmulator, to email: String) throws {
        _ = try emulator.admin("accounts", ["email": .string(email), "password": "secret123"])
        _ = try emulator.admin("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": .string(email)])
    }

    @Test func rowsShowTheSenderAnAttachmentMarkAnEmlAndADeleteButton() throws {
        let emulator = try TestEmulator()
        try Self.sendReset(emulator, to: "ada@example.com")
        let mail = try Self.storeAppMail(emulator, raw: Self.receipt, to: "buyer@example.com")
        let browser = Browser(emulator: emulator)
        let list = try browser.page("/emulator/ui/outbox")
        #expect(list.contains("<div class=\"from\">from Shop &lt;receipts@shop.example&gt;</div>"))
        #expect(list.contains("<div class=\"from\">from noreply@\(TestEmulator.project).firebaseapp.com</div>"))
        #expect(list.contains("<span class=\"clip\" title=\"2 attachments\">"))
        #expect(list.contains("<a href=\"/emulator/v1/projects/\(TestEmulator.project)/messages/\(mail).eml\" download=\"message-\(mail).eml\""))
        #expect(list.components(separatedBy: "<input type=\"hidden\" name=\"action\" value=\"delete\">").count - 1 == 2)

        // Free text finds the sender's words; the recipient filter and type stay as they were.
        let found = try browser.page("/emulator/ui/outbox?q=SHOP.example")
        #expect(ConsoleWorkbenchTests.ids(in: found) == [Int(mail)])
        #expect(found.contains("name=\"q\" value=\"SHOP.example\""))
        #expect(ConsoleWorkbenchTests.ids(in: try browser.page("/emulator/ui/outbox?q=password")) == [Int(mail) - 1])

        // One message goes; the other stays; the search it was posted from is kept.
        let deleted = try browser.submit("/emulator/ui/outbox?q=shop", [("action", "delete"), ("id", String(mail))])
        #expect(deleted.location.contains("q=shop"))
        #expect(deleted.page.contains("Deleted message \(mail)."))
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/\(mail)").status == 404)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages")["messages"]?.arrayValue?.count == 1)
        let again = try browser.submit("/emulator/ui/outbox", [("action", "delete"), ("id", String(mail))])
        #expect(again.page.contains("That message was deleted already."))
    }

    @Test func theChosenMessageOpensBesideTheListAndItsAttachmentsDownload() throws {
        let emulator = try TestEmulator()
        try Self.sendReset(emulator, to: "ada@example.com")
        let mail = try Self.storeAppMail(emulator, raw: Self.receipt, to: "buyer@example.com")
        let browser = Browser(emulator: emulator)
        let list = try browser.page("/emulator/ui/outbox?type=")
        #expect(list.contains("<div class=\"mailbox\">"))
        #expect(list.contains("<section id=\"message-pane\" data-id=\"\"></section>"))
        // Each row opens the message beside the list, with the list's filters kept.
        #expect(list.contains("<a class=\"mail\" href=\"/emulator/ui/outbox?id=\(mail)\">"))
        let open = try browser.page("/emulator/ui/outbox?status=delivered&id=\(mail)")
        #expect(open.contains("<div class=\"mailbox open\">"))
        #expect(open.contains("<li data-id=\"\(mail)\" aria-current=\"true\">"))
        #expect(open.contains("<section id=\"message-pane\" data-id=\"\(mail)\"><a class=\"back\" href=\"/emulator/ui/outbox?status=delivered\">"))
        #expect(open.contains("<h2>Your receipt</h2>"))
        #expect(open.contains("href=\"/emulator/ui/outbox?status=delivered&amp;id=\(mail)&amp;view=text\">Text</a>"))
        #expect(open.contains("<a class=\"button\" href=\"/emulator/v1/projects/\(TestEmulator.project)/messages/\(mail).eml\""))

        // Attachments: links on the message, the decoded bytes as a download under a safe name.
        let link = "/emulator/ui/attachment?id=\(mail)&amp;index=0"
        #expect(open.contains("<a href=\"\(link)\" download=\"receipt__1234_.pdf\">receipt &quot;1234&quot;.pdf</a>"))
        let pdf = try browser.get("/emulator/ui/attachment?id=\(mail)&index=0")
        #expect(pdf.status == 200)
        #expect(pdf.text == "%PDF-1.4 fake")
        #expect(pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.header("Content-Disposition") == "attachment; filename=\"receipt__1234_.pdf\"")
        // An HTML attachment is a file to save, never a page of the emulator's origin.
        let page = try browser.get("/emulator/ui/attachment?id=\(mail)&index=1")
        #expect(page.header("Content-Disposition") == "attachment; filename=\"page.html\"")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(try browser.get("/emulator/ui/attachment?id=\(mail)&index=2").status == 404)
        #expect(try browser.get("/emulator/ui/attachment?id=\(mail - 1)&index=0").status == 404)
    }

    @Test func aBouncedMessageIsMarkedAsMailTheUserNeverReceived() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["email": "ghost@privaterelay.appleid.com", "password": "secret123"])
        _ = try emulator.admin("accounts:sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "ghost@privaterelay.appleid.com",
            "continueUrl": "https://app.example.com/done", "canHandleCodeInApp": true])
        let message = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages?status=bounced")["messages"]?.arrayValue?.first
        let id = try #require(message?["id"]?.stringValue)
        let oobLink = try #require(message?["oobLink"]?.stringValue)
        let browser = Browser(emulator: emulator)
        let page = try browser.page("/emulator/ui/message?id=\(id)")
        #expect(page.contains("<p class=\"never-received\" id=\"never-received\" role=\"note\"><strong>Never received.</strong>"))
        // The links are text, not links; the frame's links do not respond; the text is not linked.
        #expect(!page.contains("<a href=\"\(HTML.escape(oobLink))\""))
        #expect(page.contains("<span class=\"mono dead-link\"><span class=\"url\">"))
        #expect(page.contains("a{pointer-events:none;color:#5b6470}"))
        let text = try browser.page("/emulator/ui/message?id=\(id)&view=text")
        #expect(!text.contains("<a href=\"\(HTML.escape(oobLink))\">"))
        // A delivered message keeps its links.
        try ConsoleOutboxTests.sendReset(emulator, to: "ada@example.com")
        let delivered = try #require(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")["id"]?.stringValue)
        let shown = try browser.page("/emulator/ui/message?id=\(delivered)")
        #expect(!shown.contains("id=\"never-received\""))
        #expect(shown.contains("<a href=\"http://localhost/emulator/action?mode=resetPassword"))
    }

    @Test func theNoTenantPillShowsOnlyInAProjectWithTenants() throws {
        let emulator = try TestEmulator()
        try Self.sendReset(emulator, to: "ada@example.com")
        let browser = Browser(emulator: emulator)
        let id = try #require(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")["id"]?.stringValue)
        #expect(!(try browser.page("/emulator/ui/outbox")).contains("no tenant"))
        #expect(!(try browser.page("/emulator/ui/message?id=\(id)")).contains("<dt>Tenant</dt>"))
        _ = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants", json: ["displayName": "Team A"],
            headers: [("Authorization", "Bearer owner")])
        #expect(try browser.page("/emulator/ui/outbox").contains(">no tenant</span>"))
        #expect(try browser.page("/emulator/ui/message?id=\(id)").contains("<dt>Tenant</dt><dd><span class=\"muted\">none (the project)</span>"))
    }

    @Test func theHTMLFrameReadsInTheConsolesTypeAndKeepsTheAppsLinkAsSent() throws {
        let emulator = try TestEmulator()
        let appLink = "https://app.example.com/__/auth/links?link=x"
        let id = try emulator.emulator.environment.store.write { store in
            try store.outbox.insert(OutboxMessage(
                scope: UserScope(projectId: TestEmulator.project), from: "noreply@example.com", to: "ada@example.com",
                subject: "Sign in", text: "Open \(appLink)", html: "<html><head></head><body><a href=\"\(appLink)\">Sign in</a></body></html>",
                requestType: "EMAIL_SIGNIN", oobCode: "code", oobLink: "http://localhost/emulator/action?oobCode=code", appLink: appLink,
                continueUrl: nil, createdAt: TestEmulator.start, delivery: Delivery(status: .delivered))).id
        }
        let page = try Browser(emulator: emulator).page("/emulator/ui/message?id=\(id)")
        let start = try #require(page.range(of: "srcdoc=\"")?.upperBound)
        let srcdoc = String(page[start...].prefix { $0 != "\"" })
        // The default type before the message's own styles, and the link it carries, as it is.
        #expect(srcdoc.hasPrefix("&lt;html&gt;&lt;head&gt;&lt;base target=&quot;_top&quot;&gt;&lt;style&gt;html{font:15px/1.5 system-ui"))
        #expect(srcdoc.contains("href=&quot;\(appLink)&quot;"))
        #expect(!page.contains("opens the emulator's action page it wraps"))
        // Sized from the message: a short one gets the shortest frame, not a tall empty one.
        #expect(page.contains("style=\"height:216px\""))
        #expect(ConsoleMessageView.frameHeight(String(repeating: "<p>line</p>", count: 100)) == 984)
    }

    @Test func anSMSHasOnlyItsText() throws {
        let emulator = try TestEmulator()
        let id = try emulator.emulator.environment.store.write { store in
            try store.outbox.insert(OutboxMessage(
                scope: UserScope(projectId: TestEmulator.project), from: "Firebase", to: "+16505550101", subject: "",
                text: "123456 is your verification code.", html: "", requestType: "PHONE_SIGN_IN", oobCode: "123456", oobLink: nil,
                appLink: nil, continueUrl: nil, createdAt: TestEmulator.start, delivery: Delivery(status: .delivered))).id
        }
        let page = try Browser(emulator: emulator).page("/emulator/ui/message?id=\(id)&view=raw")
        #expect(page.contains("<pre id=\"text-body\">123456 is your verification code.</pre>"))
        #expect(!page.contains("view=raw\""))
        #expect(!page.contains("Download .eml"))
    }
}
