import Foundation
import HTML

/// The outbox as Mailpit shows a mailbox: newest first, filtered by recipient and type; one
/// message with its headers, delivery (and the relay's reason), links, plain text, and its HTML in
/// a sandboxed frame.
enum ConsoleOutboxPages {
    static let shown = 200

    // MARK: GET /emulator/ui/outbox

    static func list(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let to = context.query("to")?.trimmingCharacters(in: .whitespaces)
        let type = context.query("type")
        var filter = OutboxFilter(limit: shown)
        filter.to = to.map(EmailAddress.canonical)
        filter.requestType = type
        filter.tenantId = context.scope.tenantId
        let messages = try context.environment.store.read { try $0.outbox.messages(projectId: context.scope.projectId, filter) }
        let rows = messages.map { message -> HTML in
            """
            <tr><td><a href="\(context.link("/message", [("id", String(message.id))]))">\(message.subject)</a></td>\
            <td>\(message.to)</td><td>\(message.requestType)</td><td>\(delivery(message.delivery))</td>\
            <td>\(message.scope.tenantId)</td><td>\(message.createdAt.rfc3339)</td></tr>
            """
        }
        let types = HTML.joined(OutboxOperations.messageTypes.sorted().map { name -> HTML in
            let selected: HTML = name == type ? " selected" : ""
            return "<option value=\"\(name)\"\(selected)>\(name)</option>"
        })
        let content: HTML = """
            <form method="get" action="\(ConsoleContext.base)/outbox" class="toolbar">
            \(ConsoleUserPages.scopeFields(context))
            <label>Recipient <input type="search" name="to" value="\(to)" placeholder="ada@example.com"></label>
            <label>Type <select name="type"><option value="">Any</option>\(types)</select></label>
            <button type="submit">Filter</button>
            </form>
            <p class="muted">Every email and SMS the emulator would send\(context.scope.tenantId == nil ? "" : " for this tenant"), newest first (up to \(shown)).</p>
            \(ConsoleLayout.table(["Subject", "To", "Type", "Delivery", "Tenant", "Sent"], rows, empty: "No messages."))
            <h2>Danger zone</h2>
            \(context.button("/outbox", action: "delete-all", label: "Delete every message of project \(context.scope.projectId)", danger: true))
            """
        return ConsoleLayout.page(context, .outbox, title: "Outbox", content)
    }

    static func delivery(_ delivery: Delivery) -> HTML {
        "<span class=\"badge \(delivery.status.rawValue)\">\(delivery.status.rawValue)</span>"
    }

    /// POST /emulator/ui/outbox: `delete-all`.
    static func listAction(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/outbox")) { context, form in
            guard try form.string("action") == "delete-all" else { throw AuthError.invalid("Unknown action.") }
            try context.environment.store.write { try $0.outbox.deleteAll(projectId: context.scope.projectId) }
            return ("Deleted every message.", nil)
        }
    }

    // MARK: GET /emulator/ui/message?id=…

    static func message(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let id = context.query("id").flatMap { Int64($0) }
        let found = try id.flatMap { id in
            try context.environment.store.read { try $0.outbox.message(id: id, projectId: context.scope.projectId) }
        }
        guard let message = found else {
            return ConsoleLayout.page(
                context, .outbox, title: "No such message",
                "<p>There is no message \(context.query("id") ?? "") in this project.</p><p><a href=\"\(context.link("/outbox"))\">Outbox</a></p>",
                status: 404)
        }
        let link = { (url: String?) -> HTML? in url.map(webLink) }
        let deliveryFacts: HTML = """
            \(delivery(message.delivery))\
            \(message.delivery.forwardedTo.map { (address: String) -> HTML in " forwarded to <strong id=\"forwarded-to\">\(address)</strong>" } ?? "")\
            \(message.delivery.reason.map { (reason: String) -> HTML in "<br><span id=\"delivery-reason\">\(reason)</span>" } ?? "")
            """
        let facts = ConsoleLayout.details([
            ("From", ConsoleLayout.text(message.from)), ("To", ConsoleLayout.text(message.to)),
            ("Subject", ConsoleLayout.text(message.subject)), ("Date", ConsoleLayout.instant(message.createdAt)),
            ("Type", ConsoleLayout.text(message.requestType)), ("Tenant", ConsoleLayout.text(message.scope.tenantId)),
            ("Delivery", deliveryFacts), ("Code", message.oobCode.map { "<code>\($0)</code>" }),
            ("Action link", link(message.oobLink)), ("App link", link(message.appLink)),
            ("Continue URL", link(message.continueUrl)),
        ])
        let html: HTML = message.html.isEmpty
            ? "<p class=\"empty\">No HTML part (an SMS).</p>"
            // `srcdoc` holds the HTML escaped once, as an attribute; `sandbox` runs no script and
            // gives the frame an origin of its own.
            : "<iframe class=\"mail\" sandbox srcdoc=\"\(message.html)\" title=\"The message's HTML body\"></iframe>"
        let content: HTML = """
            \(facts)
            <h2>HTML</h2>
            \(html)
            <h2>Plain text</h2>
            <pre>\(linkified(message.text))</pre>
            <p><a href="\(context.link("/outbox"))">« Outbox</a></p>
            """
        return ConsoleLayout.page(context, .outbox, title: message.subject.isEmpty ? "Message \(String(message.id))" : message.subject, content)
    }

    /// A link when `url` is http(s), so a `javascript:` continue URL is shown, never followed.
    static func webLink(_ url: String) -> HTML {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return "<span class=\"mono\">\(url)</span>" }
        return "<a href=\"\(url)\" class=\"mono\">\(url)</a>"
    }

    /// Plain text with its `http(s)://` words made links; everything else escaped.
    static func linkified(_ text: String) -> HTML {
        var pieces: [HTML] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if word.hasPrefix("https://") || word.hasPrefix("http://") {
                pieces.append("<a href=\"\(word)\">\(word)</a>")
            } else {
                pieces.append("\(word)")
            }
            word = ""
        }
        for character in text {
            if character.isWhitespace {
                flush()
                pieces.append("\(String(character))")
            } else {
                word.append(character)
            }
        }
        flush()
        return HTML.joined(pieces)
    }
}
