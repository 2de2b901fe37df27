import HTML
import MailMessage

/// The outbox as Mailpit shows a mailbox: newest first, sender, recipient, a preview line, an
/// attachment mark and the delivery status (and a bounce's reason) on each row, with its `.eml`
/// and a delete button; counts per status as tabs, keyset paging, a free-text search and filters
/// by recipient and type. A chosen message opens beside the list on a wide screen (in its place
/// on a phone), without a script; the page's script swaps it in without a page load, and
/// refreshes the list when mail arrives.
enum ConsoleOutboxPages {
    static let pageSize = 50

    // MARK: GET /emulator/ui/outbox[?id=…]

    static func list(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let query = inboxQuery(context)
        let chosenId = context.query("id").flatMap { Int64($0) }
        let projectId = context.scope.projectId
        let (page, counts, chosen, hasTenants) = try context.environment.store.read { store in
            (
                try store.outbox.inboxPage(projectId: projectId, query, limit: pageSize + 1),
                try store.outbox.inboxCounts(projectId: projectId, query),
                try chosenId.flatMap { try store.outbox.message(id: $0, projectId: projectId) },
                try projectHasTenants(store, projectId)
            )
        }
        let messages = Array(page.prefix(pageSize))
        // The filters every link keeps (search, recipient, type); links add the status and cursor they want.
        let filters = filterQuery(context)
        let statusQuery = query.status.map { [("status", $0.rawValue)] } ?? []
        let pageQuery = filters + statusQuery + (query.before.map { [("before", String($0))] } ?? [])
        // What this page is, message and all: where its forms send the browser back.
        let here = pageQuery + (chosen.map { [("id", String($0.id))] } ?? [])

        let total = counts.values.reduce(0, +)
        let tabs = HTML.joined(([nil] + [Delivery.Status.delivered, .relayed, .bounced]).map { status -> HTML in
            let count = status.map { counts[$0] ?? 0 } ?? total
            let current: HTML = status == query.status ? " aria-current=\"page\"" : ""
            let link = context.link("/outbox", filters + (status.map { [("status", $0.rawValue)] } ?? []))
            return "<a href=\"\(link)\"\(current) data-status=\"\(status?.rawValue ?? "all")\">\(status?.rawValue.capitalized ?? "All")<span class=\"count\">\(count)</span></a>"
        })
        let showsNoTenant = hasTenants && context.scope.tenantId == nil
        let rows = messages.map { message -> HTML in
            row(message, context: context, open: pageQuery + [("id", String(message.id))], here: here,
                chosen: message.id == chosen?.id, showsNoTenant: showsNoTenant)
        }
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
        let type = context.query("type")
        let types: [(value: String, label: String)] = [("", "Any")] + OutboxOperations.messageTypes.sorted().map { ($0, $0) }
        let search = ConsoleForm("filter")
        let pane: HTML = try chosen.map { message -> HTML in
            let view = try ConsoleMessageView(
                message: message, context: context, source: OutboxOperations.emlSource(of: message, from: context.environment.store),
                projectHasTenants: hasTenants,
                viewLink: { context.link("/outbox", pageQuery + [("id", String(message.id)), ("view", $0)]) }, outboxQuery: pageQuery)
            return """
                <a class="back" href="\(context.link("/outbox", pageQuery))">« All messages</a>
                <h2>\(message.subject.isEmpty ? "(no subject)" : message.subject)</h2>
                \(view.render(view: context.query("view")))
                """
        } ?? ""
        let content: HTML = """
            <form method="get" action="\(ConsoleContext.base)/outbox" class="toolbar">
            \(ConsoleUserPages.scopeFields(context))\(query.status.map { (status: Delivery.Status) -> HTML in "<input type=\"hidden\" name=\"status\" value=\"\(status.rawValue)\">" } ?? "")
            \(search.input("Search", "q", type: "search", value: context.query("q"), placeholder: "subject, text, sender or address"))
            \(search.input("Recipient", "to", type: "search", value: context.query("to")?.trimmingWhitespace(), placeholder: "ada@example.com"))
            \(search.select("Type", "type", types, selected: type))
            <button type="submit">Filter</button>
            </form>
            <div class="mailbox\(chosen == nil ? "" : " open")">
            <div id="inbox"\(live)>
            <nav class="tabs" aria-label="Delivery status">\(tabs)</nav>
            <p class="muted">Every email and SMS the emulator would send\(context.scope.tenantId == nil ? "" : " for this tenant"), newest first: \(
                messages.count) of \(shownCount) shown\(query.before == nil ? "" : " (older ones)"), \(pageSize) a page.\
             <span id="live-note" hidden>New messages appear by themselves.</span></p>
            \(list)
            <div class="pager">\(pager)</div>
            </div>
            <section id="message-pane" data-id="\(chosen.map { String($0.id) } ?? "")">\(pane)</section>
            </div>
            <h2>Danger zone</h2>
            \(context.button("/outbox", here, action: "delete-all", label: "Delete every message of project \(context.scope.projectId)", danger: true))
            """
        return ConsoleLayout.page(context, .outbox, title: "Outbox", content)
    }

    /// Whether the project has tenants: only then does "no tenant" tell anything.
    private static func projectHasTenants(_ store: StoreTransaction, _ projectId: String) throws -> Bool {
        try !store.tenants.list(projectId: projectId, after: nil, limit: 1).isEmpty
    }

    /// The search and filters of the page's query, as links keep them.
    private static func filterQuery(_ context: ConsoleContext) -> [(String, String)] {
        var filters: [(String, String)] = []
        for name in ["q", "to", "type"] {
            if let value = context.query(name)?.trimmingWhitespace(), !value.isEmpty { filters.append((name, value)) }
        }
        return filters
    }

    /// The filters of an inbox request: search, recipient, type, status, the console's tenant, the page.
    private static func inboxQuery(_ context: ConsoleContext) -> OutboxInboxQuery {
        func value(_ name: String) -> String? {
            (context.query(name)?.trimmingWhitespace()).flatMap { $0.isEmpty ? nil : $0 }
        }
        var query = OutboxInboxQuery()
        query.to = value("to").map(EmailAddress.canonical)
        query.requestType = value("type")
        query.text = value("q")
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

    /// One inbox row: recipient and time; sender; subject, type, attachments, tenant and status;
    /// the first words of the text; a bounce's reason; the `.eml` and a delete button beside it.
    private static func row(
        _ message: OutboxMessage, context: ConsoleContext, open: [(String, String)], here: [(String, String)], chosen: Bool,
        showsNoTenant: Bool
    ) -> HTML {
        let tenant: HTML = message.scope.tenantId.map { ConsoleLayout.badge("tenant \($0)", kind: "tenant") }
            ?? (showsNoTenant ? "<span class=\"badge\" title=\"Sent for the project, outside any tenant\">no tenant</span>" : "")
        let reason: HTML = message.delivery.status == .bounced
            ? "<div class=\"reason\">Bounced: \(message.delivery.reason ?? "no reason given")</div>" : ""
        let forwarded: HTML = message.delivery.forwardedTo.map { (address: String) -> HTML in
            "<span class=\"relay\">→ \(address)</span>"
        } ?? ""
        let attachments = message.mailDetails?.attachments.count ?? 0
        let clip: HTML = attachments == 0
            ? "" : "<span class=\"clip\" title=\"\(attachments) attachment\(attachments == 1 ? "" : "s")\">\(paperclip) \(attachments)</span>"
        let eml: HTML = message.isEmail
            ? "<a href=\"\(emlPath(message))\" download=\"message-\(String(message.id)).eml\" title=\"Download the message as a .eml file\">.eml</a>" : ""
        let delete = context.form("/outbox", here, class: "inline", """
            <input type="hidden" name="action" value="delete"><input type="hidden" name="id" value="\(String(message.id))">\
            <button type="submit" title="Delete this message">Delete</button>
            """)
        let current: HTML = chosen ? " aria-current=\"true\"" : ""
        return """
            <li data-id="\(String(message.id))"\(current)><a class="mail" href="\(context.link("/outbox", open))">
            <div class="line"><span class="who">\(message.to)</span>\(forwarded)\(ConsoleLayout.shortTime(message.createdAt))</div>
            <div class="from">from \(message.mailDetails?.headerFrom ?? message.from)</div>
            <div class="line about"><span class="subject">\(message.subject.isEmpty ? "(no subject)" : message.subject)</span>\
            \(clip)\(ConsoleLayout.badge(message.typeLabel, kind: "type"))\(tenant)\(delivery(message.delivery))</div>
            <div class="preview">\(preview(message))</div>\(reason)</a>
            <div class="row-actions">\(eml)\(delete)</div></li>
            """
    }

    /// A paperclip, drawn: no font on the machine need have one.
    private static let paperclip: HTML = """
        <svg class="paperclip" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true"><path d="M10.5 4.5v6.5a2.5 2.5 0 0 1-5 0V3.5a1.75 1.75 0 0 1 3.5 0V10.5a.75.75 0 0 1-1.5 0V5" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/></svg>
        """

    /// The API's `.eml` of a message.
    static func emlPath(_ message: OutboxMessage) -> String {
        "/emulator/v1/projects/\(URIComponent.encode(message.scope.projectId))/messages/\(message.id).eml"
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

    /// POST /emulator/ui/outbox: `delete` (one message, `id`) or `delete-all`; back to the
    /// outbox as it was, without the message that went.
    static func listAction(_ request: OperationRequest) throws -> OperationResult {
        // The outbox as the form's page showed it (`link` adds the project and tenant again).
        let shown = request.query.map { ($0.name, $0.value) }.filter { !["project", "tenant", "flash", "error"].contains($0.0) }
        return try ConsoleContext.post(request, back: .init(path: "/outbox", query: shown)) { context, form in
            let projectId = context.scope.projectId
            switch try form.string("action") ?? "" {
            case "delete":
                guard let id = try form.string("id").flatMap({ Int64($0) }),
                    try context.environment.store.write({ try $0.outbox.delete(id: id, projectId: projectId) })
                else { throw ConsoleProblem(field: nil, "That message was deleted already.") }
                let wasOpen = shown.contains { $0.0 == "id" && $0.1 == String(id) }
                return ("Deleted message \(id).", .init(path: "/outbox", query: wasOpen ? shown.filter { $0.0 != "id" && $0.0 != "view" } : shown))
            case "delete-all":
                try context.environment.store.write { try $0.outbox.deleteAll(projectId: projectId) }
                return ("Deleted every message.", .init(path: "/outbox"))
            default:
                throw AuthError.invalid("Unknown action.")
            }
        }
    }

    // MARK: GET /emulator/ui/message?id=…

    /// One message on a page of its own (a link to keep, and the outbox of older consoles).
    static func message(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let id = context.query("id").flatMap { Int64($0) }
        let store = context.environment.store
        let projectId = context.scope.projectId
        let found = try id.flatMap { id in
            try store.read { store in
                try store.outbox.message(id: id, projectId: projectId).map { ($0, try projectHasTenants(store, projectId)) }
            }
        }
        guard let (message, hasTenants) = found else {
            return ConsoleLayout.page(
                context, .outbox, title: "No such message",
                "<p>There is no message \(context.query("id") ?? "") in this project.</p><p><a href=\"\(context.link("/outbox"))\">Outbox</a></p>",
                status: 404)
        }
        let view = ConsoleMessageView(
            message: message, context: context, source: try OutboxOperations.emlSource(of: message, from: store),
            projectHasTenants: hasTenants,
            viewLink: { context.link("/message", [("id", String(message.id)), ("view", $0)]) }, outboxQuery: [])
        let content: HTML = """
            \(view.render(view: context.query("view")))
            <p><a href="\(context.link("/outbox", [("id", String(message.id))]))">« Outbox</a></p>
            """
        return ConsoleLayout.page(context, .outbox, title: message.subject.isEmpty ? "Message \(String(message.id))" : message.subject, content)
    }

    // MARK: GET /emulator/ui/attachment?id=…&index=…

    /// One attachment of the app's own mail, decoded from the source as received, as a download
    /// (never shown inline: an HTML attachment must not run on the emulator's origin).
    static func attachment(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let projectId = context.scope.projectId
        let id = context.query("id").flatMap { Int64($0) }
        let index = context.query("index").flatMap { Int($0) } ?? -1
        let found = try id.flatMap { id in
            try context.environment.store.read { store -> (AppMailDetails, [UInt8])? in
                guard let message = try store.outbox.message(id: id, projectId: projectId), let details = message.mailDetails,
                    let rawId = message.rawSourceId, let raw = try store.outbox.rawSource(id: rawId)
                else { return nil }
                return (details, raw)
            }
        }
        guard let (details, raw) = found, details.attachments.indices.contains(index),
            let content = MailMessage(raw: raw).attachmentContent(at: index)
        else {
            return ConsoleLayout.page(
                context, .outbox, title: "No such attachment",
                "<p>Message \(context.query("id") ?? "") of this project has no attachment \(context.query("index") ?? "").</p>",
                status: 404)
        }
        let attachment = details.attachments[index]
        return .download(
            content, contentType: safeContentType(attachment.contentType),
            fileName: safeFileName(attachment.filename ?? "attachment-\(index + 1)"))
    }

    /// A file name for `Content-Disposition`: letters, digits, `.`, `-` and `_`; anything else `_`.
    static func safeFileName(_ name: String) -> String {
        let kept = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") ? $0 : "_" })
        return kept.isEmpty || kept.allSatisfy({ $0 == "." }) ? "attachment" : String(kept.prefix(100))
    }

    /// `type/subtype` of plain token characters, else `application/octet-stream`.
    static func safeContentType(_ type: String) -> String {
        let parts = type.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        let token = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) } }
        return parts.count == 2 && parts.allSatisfy(token) ? parts.joined(separator: "/") : "application/octet-stream"
    }
}
