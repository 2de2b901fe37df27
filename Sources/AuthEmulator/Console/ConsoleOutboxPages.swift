#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTML

/// The outbox as Mailpit shows a mailbox: newest first, a preview line, the delivery status (and
/// a bounce's reason) on each row, counts per status as tabs, keyset paging, filters by recipient
/// and type; one message with tabs for its HTML (in a sandboxed frame whose links open the
/// emulator), text, headers and raw source. The list refreshes itself when the script runs.
enum ConsoleOutboxPages {
    static let pageSize = 50

    // MARK: GET /emulator/ui/outbox

    static func list(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let to = context.query("to")?.trimmingWhitespace()
        let type = context.query("type")
        let query = inboxQuery(context)
        let (page, counts) = try context.environment.store.read { store in
            (
                try store.outbox.inboxPage(projectId: context.scope.projectId, query, limit: pageSize + 1),
                try store.outbox.inboxCounts(projectId: context.scope.projectId, query)
            )
        }
        let messages = Array(page.prefix(pageSize))
        // The filters every link keeps (recipient, type); links add the status and cursor they want.
        var filters: [(String, String)] = []
        if let to, !to.isEmpty { filters.append(("to", to)) }
        if let type { filters.append(("type", type)) }
        let statusQuery = query.status.map { [("status", $0.rawValue)] } ?? []

        let total = counts.values.reduce(0, +)
        let tabs = HTML.joined(([nil] + [Delivery.Status.delivered, .relayed, .bounced]).map { status -> HTML in
            let count = status.map { counts[$0] ?? 0 } ?? total
            let current: HTML = status == query.status ? " aria-current=\"page\"" : ""
            let link = context.link("/outbox", filters + (status.map { [("status", $0.rawValue)] } ?? []))
            return "<a href=\"\(link)\"\(current) data-status=\"\(status?.rawValue ?? "all")\">\(status?.rawValue.capitalized ?? "All")<span class=\"count\">\(count)</span></a>"
        })
        let rows = messages.map { row($0, context: context) }
        var pager: [HTML] = []
        if query.before != nil { pager.append("<a href=\"\(context.link("/outbox", filters + statusQuery))\">« Newest</a>") }
        if page.count > pageSize, let last = messages.last {
            pager.append("<a href=\"\(context.link("/outbox", filters + statusQuery + [("before", String(last.id))]))\" rel=\"next\">Older »</a>")
        }
        let shownCount = query.status.map { counts[$0] ?? 0 } ?? total
        let list: HTML = rows.isEmpty
            ? "<p class=\"empty\">\(query.before == nil ? "No messages." : "No older messages.")</p>"
            : "<ol class=\"inbox\">\(rows)</ol>"
        // The first page refreshes itself when the script runs: it asks `outbox/changes` to
        // answer once this key is out of date, then fetches the page again.
        let key = liveKey(newest: messages.first, counts: counts)
        let changes = context.link(
            "/outbox/changes", filters + statusQuery + [("waitSeconds", String(Int(liveWaitSeconds)))])
        let live: HTML = query.before == nil ? " data-live-key=\"\(key)\" data-live-src=\"\(changes)\"" : ""
        let types = HTML.joined(OutboxOperations.messageTypes.sorted().map { name -> HTML in
            let selected: HTML = name == type ? " selected" : ""
            return "<option value=\"\(name)\"\(selected)>\(name)</option>"
        })
        let content: HTML = """
            <form method="get" action="\(ConsoleContext.base)/outbox" class="toolbar">
            \(ConsoleUserPages.scopeFields(context))\(query.status.map { (status: Delivery.Status) -> HTML in "<input type=\"hidden\" name=\"status\" value=\"\(status.rawValue)\">" } ?? "")
            <label>Recipient <input type="search" name="to" value="\(to)" placeholder="ada@example.com"></label>
            <label>Type <select name="type"><option value="">Any</option>\(types)</select></label>
            <button type="submit">Filter</button>
            </form>
            <div id="inbox"\(live)>
            <nav class="tabs" aria-label="Delivery status">\(tabs)</nav>
            <p class="muted">Every email and SMS the emulator would send\(context.scope.tenantId == nil ? "" : " for this tenant"), newest first: \(
                messages.count) of \(shownCount) shown\(query.before == nil ? "" : " (older ones)"), \(pageSize) a page.\
             <span id="live-note" hidden>New messages appear by themselves.</span></p>
            \(list)
            <div class="pager">\(pager)</div>
            </div>
            <h2>Danger zone</h2>
            \(context.button("/outbox", action: "delete-all", label: "Delete every message of project \(context.scope.projectId)", danger: true))
            """
        return ConsoleLayout.page(context, .outbox, title: "Outbox", content)
    }

    /// The filters of an inbox request: recipient, type, status, the console's tenant, the page.
    private static func inboxQuery(_ context: ConsoleContext) -> OutboxInboxQuery {
        var query = OutboxInboxQuery()
        query.to = (context.query("to")?.trimmingWhitespace()).flatMap { $0.isEmpty ? nil : EmailAddress.canonical($0) }
        query.requestType = context.query("type")
        query.tenantId = context.scope.tenantId
        query.status = context.query("status").flatMap(Delivery.Status.init(rawValue:))
        query.before = context.query("before").flatMap { Int64($0) }
        return query
    }

    /// Changes whenever a message arrives, goes, or the counts move.
    private static func liveKey(newest: OutboxMessage?, counts: [Delivery.Status: Int]) -> String {
        "\(newest?.id ?? 0)-\(counts[.delivered] ?? 0)-\(counts[.relayed] ?? 0)-\(counts[.bounced] ?? 0)"
    }

    /// How long the page's script asks `outbox/changes` to wait, and the most it may ask.
    static let liveWaitSeconds = 25.0

    // MARK: GET /emulator/ui/outbox/changes?key=…&waitSeconds=…

    /// `{"key": …}` as soon as the inbox's live key (same filters) differs from `key`, or after
    /// `waitSeconds` (0 to `liveWaitSeconds`; none: answer at once, as the outbox API) with the
    /// current one. A suspended answer, like the outbox API's `waitSeconds`: no HTTP worker waits
    /// on a tab that leaves it open.
    static func changes(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let waitSeconds = try liveWait(context.query("waitSeconds"))
        var query = inboxQuery(context)
        query.before = nil
        let known = context.query("key") ?? ""
        let store = context.environment.store
        let projectId = context.scope.projectId
        let waiters = context.environment.outboxWaiters
        let read: @Sendable () throws -> String = { [query] in
            try store.read { store in
                liveKey(newest: try store.outbox.inboxPage(projectId: projectId, query, limit: 1).first,
                    counts: try store.outbox.inboxCounts(projectId: projectId, query))
            }
        }
        let current = try read()
        guard current == known, waitSeconds > 0 else { return .json(["key": .string(current)]) }
        return .deferred { answer in
            waiters.wait(projectId: projectId, seconds: waitSeconds) {
                guard let now = try? read(), now != known else { return false }
                answer.complete(.json(["key": .string(now)]))
                return true
            } onTimeout: {
                answer.complete(.json(["key": .string((try? read()) ?? known)]))
            }
        }
    }

    private static func liveWait(_ text: String?) throws(AuthError) -> Double {
        guard let text, !text.isEmpty else { return 0 }
        guard let seconds = Double(text), seconds >= 0, seconds <= liveWaitSeconds else {
            throw AuthError.invalid("INVALID_ARGUMENT : waitSeconds must be a number from 0 to \(Int(liveWaitSeconds)).")
        }
        return seconds
    }

    /// One inbox row: recipient and time; subject, type, tenant and status; the first words of
    /// the text; a bounce's reason.
    private static func row(_ message: OutboxMessage, context: ConsoleContext) -> HTML {
        let tenant: HTML = message.scope.tenantId.map { ConsoleLayout.badge("tenant \($0)", kind: "tenant") }
            ?? (context.scope.tenantId == nil ? "<span class=\"badge\" title=\"Sent for the project, outside any tenant\">no tenant</span>" : "")
        let reason: HTML = message.delivery.status == .bounced
            ? "<div class=\"reason\">Bounced: \(message.delivery.reason ?? "no reason given")</div>" : ""
        let forwarded: HTML = message.delivery.forwardedTo.map { (address: String) -> HTML in
            "<span class=\"relay\">→ \(address)</span>"
        } ?? ""
        return """
            <li data-id="\(String(message.id))"><a class="mail" href="\(context.link("/message", [("id", String(message.id))]))">
            <div class="line"><span class="who">\(message.to)</span>\(forwarded)\(ConsoleLayout.shortTime(message.createdAt))</div>
            <div class="line about"><span class="subject">\(message.subject.isEmpty ? "(no subject)" : message.subject)</span>\
            \(ConsoleLayout.badge(message.typeLabel, kind: "type"))\(tenant)\(delivery(message.delivery))</div>
            <div class="preview">\(preview(message))</div>\(reason)</a></li>
            """
    }

    /// The first words of the message's text, on one line: what tells apart messages whose
    /// subjects read the same.
    static func preview(_ message: OutboxMessage, length: Int = 160) -> String {
        let words = message.text.split(whereSeparator: \.isWhitespace)
        var line = ""
        for word in words {
            if line.count + word.count + 1 > length { return line + " …" }
            line += line.isEmpty ? String(word) : " " + word
        }
        return line
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
        // The subject is the page's heading; what the message lacks (an SMS's links) is left out.
        let facts = ConsoleLayout.details([
            ("From", ConsoleLayout.text(message.from)), ("To", ConsoleLayout.text(message.to)),
            ("Date", ConsoleLayout.instant(message.createdAt)),
            ("Type", ConsoleLayout.badge(message.typeLabel, kind: "type")),
            ("Envelope", message.mailDetails.map { details -> HTML in
                "from <span class=\"mono\">\(details.envelopeFrom.isEmpty ? "<>" : details.envelopeFrom)</span> to <span class=\"mono\">\(details.envelopeTo.joined(separator: ", "))</span>"
            }),
            ("Cc", message.mailDetails.flatMap { $0.cc.isEmpty ? nil : ConsoleLayout.text($0.cc.joined(separator: ", ")) }),
            ("Attachments", message.mailDetails.flatMap { details -> HTML? in
                guard !details.attachments.isEmpty else { return nil }
                return HTML.joined(details.attachments.map { attachment -> HTML in
                    "<span class=\"mono\">\(attachment.filename ?? "(unnamed)")</span> \(attachment.contentType), \(attachment.size) bytes<br>"
                })
            }),
            ("Tenant", message.scope.tenantId.map { ConsoleLayout.badge($0, kind: "tenant") } ?? "<span class=\"muted\">none (the project)</span>"),
            ("Delivery", deliveryFacts), ("Code", message.oobCode.map { "<code>\($0)</code>" }),
            ("Action link", link(message.oobLink)), ("App link", link(message.appLink)),
            ("Continue URL", link(message.continueUrl)),
        ].filter { $0.1 != nil }, compact: true)
        let views = message.html.isEmpty ? ["text", "headers", "raw"] : ["html", "text", "headers", "raw"]
        let view = context.query("view").flatMap { views.contains($0) ? $0 : nil } ?? views[0]
        let tabs = HTML.joined(views.map { name -> HTML in
            let current: HTML = name == view ? " aria-current=\"page\"" : ""
            let label = ["html": "HTML", "text": "Text", "headers": "Headers", "raw": "Raw source"][name] ?? name
            return "<a href=\"\(context.link("/message", [("id", String(message.id)), ("view", name)]))\"\(current)>\(label)</a>"
        })
        let raw = try message.rawSourceId.flatMap { id in try context.environment.store.read { try $0.outbox.rawSource(id: id) } }
        let source = ConsoleMessageSource(message, raw: raw)
        let body: HTML = switch view {
        case "html":
            // `srcdoc` holds the HTML escaped once, as an attribute. `sandbox` runs no script and
            // gives the frame an origin of its own; a click on a link may still take the whole
            // tab there (`<base target="_top">`), so an action link opens the emulator's page.
            "<iframe class=\"mail\" sandbox=\"allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox\" srcdoc=\"\(shownHTML(message))\" title=\"The message's HTML body\"></iframe>"
        case "headers":
            ConsoleLayout.table(["Header", "Value"], source.headers.map { "<tr><th scope=\"row\" class=\"mono\">\($0.name)</th><td class=\"mono\">\($0.value)</td></tr>" }, empty: "")
        case "raw":
            "<pre id=\"raw-source\">\(source.text)</pre>"
        default:
            "<pre id=\"text-body\">\(linkified(message.text, opening: message.appLink.flatMap { app in message.oobLink.map { (app, $0) } }))</pre>"
        }
        let content: HTML = """
            \(facts)
            <nav class="tabs" aria-label="Views of the message">\(tabs)</nav>
            \(message.appLink.map { message.text.contains($0) || message.html.contains($0) } == true && (view == "html" || view == "text")
                ? "<p class=\"muted\">The message links to the app's domain; here that link opens the emulator's action page it wraps.</p>" : "")
            \(body)
            <p><a href="\(context.link("/outbox"))">« Outbox</a></p>
            """
        return ConsoleLayout.page(context, .outbox, title: message.subject.isEmpty ? "Message \(String(message.id))" : message.subject, content)
    }

    /// The message's HTML as the console shows it: `<base target="_top">` at the top of its head,
    /// so its links leave the frame for the tab, and its link to the app's domain (which would
    /// open the app, on a host this machine may not reach) pointed at the emulator's action page
    /// it wraps.
    static func shownHTML(_ message: OutboxMessage) -> String {
        var html = message.html
        if let appLink = message.appLink, let oobLink = message.oobLink {
            html = html.replacingEvery(HTML.escape(appLink), with: HTML.escape(oobLink))
        }
        let base = "<base target=\"_top\">"
        guard let head = html.rangeIgnoringASCIICase(of: "<head>") else { return base + html }
        return html[..<head.lowerBound] + "<head>" + base + html[head.upperBound...]
    }

    /// A link when `url` is http(s), so a `javascript:` continue URL is shown, never followed.
    static func webLink(_ url: String) -> HTML {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return "<span class=\"mono\">\(url)</span>" }
        return "<a href=\"\(url)\" class=\"mono\">\(url)</a>"
    }

    /// Plain text with its `http(s)://` words made links; everything else escaped. A word equal to
    /// `opening.app` links to `opening.emulator` instead (the app link and the emulator's own).
    static func linkified(_ text: String, opening: (app: String, emulator: String)? = nil) -> HTML {
        var pieces: [HTML] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if word.hasPrefix("https://") || word.hasPrefix("http://") {
                let target = word == opening?.app ? opening?.emulator ?? word : word
                pieces.append("<a href=\"\(target)\">\(word)</a>")
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
