import HTML
import MailMessage

/// One outbox message as the console shows it, in the outbox's reading pane and on a page of its
/// own: a warning when the user never received it (bounced: its links are shown, not followed),
/// its facts (sender, recipient, date, type, delivery, code, links, attachments to download), a
/// `.eml` download and a delete button, and tabs for its HTML (in a sandboxed frame that runs no
/// script), text, headers and RFC 5322 source.
struct ConsoleMessageView {
    let message: OutboxMessage
    let context: ConsoleContext
    /// The RFC 5322 source (`OutboxOperations.emlSource`); nil for an SMS.
    let source: [UInt8]?
    /// Whether the project has tenants: only then does "no tenant" tell anything.
    let projectHasTenants: Bool
    /// The URL of one view (tab) of the message, where it is shown.
    let viewLink: (String) -> String
    /// The outbox query the delete button returns to.
    let outboxQuery: [(String, String)]

    /// The views a message has: an SMS has only its text.
    var views: [String] {
        guard source != nil else { return ["text"] }
        return message.html.isEmpty ? ["text", "headers", "raw"] : ["html", "text", "headers", "raw"]
    }

    private var neverReceived: Bool { message.delivery.status == .bounced }

    /// The facts, the actions, the tabs and `view` (the first when unknown).
    func render(view requested: String?) -> HTML {
        let view = requested.flatMap { views.contains($0) ? $0 : nil } ?? views[0]
        let tabs = HTML.joined(views.map { name -> HTML in
            let current: HTML = name == view ? " aria-current=\"page\"" : ""
            let label = ["html": "HTML", "text": "Text", "headers": "Headers", "raw": "Raw source"][name] ?? name
            return "<a href=\"\(viewLink(name))\"\(current)>\(label)</a>"
        })
        let warning: HTML = neverReceived
            ? """
                <p class="never-received" id="never-received" role="note"><strong>Never received.</strong> This message bounced: \
                the user never got it, so its links are shown here as text, not to be followed as if they had.</p>
                """
            : ""
        return """
            \(warning)\(facts)
            <div class="actions">\(actions)</div>
            <nav class="tabs" aria-label="Views of the message">\(tabs)</nav>
            \(body(view))
            """
    }

    // MARK: Facts

    private var facts: HTML {
        let delivery: HTML = """
            \(ConsoleOutboxPages.delivery(message.delivery))\
            \(message.delivery.forwardedTo.map { (address: String) -> HTML in " forwarded to <strong id=\"forwarded-to\">\(ConsoleLayout.address(address))</strong>" } ?? "")\
            \(message.delivery.reason.map { (reason: String) -> HTML in "<br><span id=\"delivery-reason\">\(reason)</span>" } ?? "")
            """
        let tenant: HTML? = message.scope.tenantId.map { ConsoleLayout.badge($0, kind: "tenant") }
            ?? (projectHasTenants ? "<span class=\"muted\">none (the project)</span>" : nil)
        // The subject is the heading; what the message lacks (an SMS's links) is left out.
        return ConsoleLayout.details([
            ("From", ConsoleLayout.address(message.mailDetails?.headerFrom ?? message.from)),
            ("To", ConsoleLayout.address(message.to)),
            ("Date", ConsoleLayout.instant(message.createdAt)),
            ("Type", ConsoleLayout.badge(message.typeLabel, kind: "type")),
            ("Envelope", message.mailDetails.map { details -> HTML in
                "from <span class=\"mono\">\(details.envelopeFrom.isEmpty ? "<>" : details.envelopeFrom)</span> to <span class=\"mono\">\(details.envelopeTo.joined(separator: ", "))</span>"
            }),
            ("Cc", message.mailDetails.flatMap { $0.cc.isEmpty ? nil : ConsoleLayout.text($0.cc.joined(separator: ", ")) }),
            ("Attachments", attachments), ("Tenant", tenant), ("Delivery", delivery),
            ("Code", message.oobCode.map(ConsoleLayout.token)),
            ("Action link", message.oobLink.map(link)), ("App link", message.appLink.map(link)),
            ("Continue URL", message.continueUrl.map(link)),
        ].filter { $0.1 != nil }, compact: true)
    }

    /// Each attachment, downloadable (`/emulator/ui/attachment`), with its type and size.
    private var attachments: HTML? {
        guard let details = message.mailDetails, !details.attachments.isEmpty else { return nil }
        let items = details.attachments.enumerated().map { index, attachment -> HTML in
            let name = attachment.filename ?? "attachment-\(index + 1)"
            let href = context.link("/attachment", [("id", String(message.id)), ("index", String(index))])
            return """
                <li><a href="\(href)" download="\(ConsoleOutboxPages.safeFileName(name))">\(name)</a> \
                <span class="muted">\(attachment.contentType), \(Self.size(attachment.size))</span></li>
                """
        }
        return "<ul class=\"files\">\(HTML.joined(items))</ul>"
    }

    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return "\((bytes + 512) / 1024) KB" }
        return "\((bytes + 512 * 1024) / (1024 * 1024)) MB"
    }

    /// A link, unless the message bounced (text the user never saw) or the URL is not http(s) (a
    /// `javascript:` continue URL is shown, never followed).
    private func link(_ url: String) -> HTML {
        let lowered = url.lowercased()
        guard !neverReceived, lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            return "<span class=\"mono\(neverReceived ? " dead-link" : "")\">\(ConsoleLayout.urlText(url))</span>"
        }
        return "<a href=\"\(url)\" class=\"mono\">\(ConsoleLayout.urlText(url))</a>"
    }

    // MARK: Actions

    private var actions: HTML {
        let download: HTML = source == nil ? "" : """
            <a class="button" href="\(ConsoleOutboxPages.emlPath(message))" download="message-\(String(message.id)).eml">Download .eml</a>
            """
        let delete = context.form("/outbox", outboxQuery, class: "inline", """
            <input type="hidden" name="action" value="delete"><input type="hidden" name="id" value="\(String(message.id))">\
            <button type="submit" class="danger">Delete</button>
            """)
        return download + delete
    }

    // MARK: Views

    private func body(_ view: String) -> HTML {
        switch view {
        case "html":
            // `srcdoc` holds the HTML escaped once, as an attribute. `sandbox` runs no script and
            // gives the frame an origin of its own; a click on a link may still take the whole
            // tab there (`<base target="_top">`). The frame cannot tell its height without a
            // script, so it is sized from the message and can be dragged taller.
            return """
                <iframe class="mail" sandbox="allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox" \
                srcdoc="\(shownHTML)" style="height:\(Self.frameHeight(message.html))px" title="The message's HTML body"></iframe>
                """
        case "headers":
            let fields = MailMessage(raw: source ?? []).headers.fields
            return ConsoleLayout.table(
                ["Header", "Value"],
                fields.map { "<tr><th scope=\"row\" class=\"mono\">\($0.name)</th><td class=\"mono\">\($0.value)</td></tr>" }, empty: "")
        case "raw":
            return "<pre id=\"raw-source\">\(String(decoding: source ?? [], as: UTF8.self))</pre>"
        default:
            let text: HTML = neverReceived ? "\(message.text)" : Self.linkified(message.text)
            return "<pre id=\"text-body\">\(text)</pre>"
        }
    }

    /// The message's HTML as the console shows it: at the top of its head `<base target="_top">`,
    /// so its links leave the frame for the tab, and a readable default type (the message's own
    /// styles, later, win); a bounced message's links do not respond.
    var shownHTML: String {
        let html = message.html
        let head = "<base target=\"_top\"><style>\(Self.frameStyle)\(neverReceived ? Self.deadLinks : "")</style>"
        guard let start = html.rangeIgnoringASCIICase(of: "<head>") else { return head + html }
        return html[..<start.lowerBound] + "<head>" + head + html[start.upperBound...]
    }

    private static let frameStyle =
        "html{font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1b1f24}body{margin:.75rem 1rem;overflow-wrap:break-word}"
    private static let deadLinks = "a{pointer-events:none;color:#5b6470}"

    /// The frame's height in px, estimated from the HTML's blocks and the length of its text (a
    /// line a block, a line per 80 characters), between 8 and 40 lines of 24 px.
    static func frameHeight(_ html: String) -> Int {
        let lowered = html.lowercased()
        let blocks = ["<p", "<br", "<tr", "<li", "<h1", "<h2", "<h3", "<div"].reduce(0) { count, tag in
            count + lowered.split(separator: tag, omittingEmptySubsequences: false).count - 1
        }
        var inTag = false
        var textLength = 0
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { textLength += 1 }
        }
        let lines = min(max(blocks + textLength / 80, 8), 40)
        return 24 * lines + 24
    }

    /// Plain text with its `http(s)://` words made links; everything else escaped.
    static func linkified(_ text: String) -> HTML {
        var pieces: [HTML] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            pieces.append(word.hasPrefix("https://") || word.hasPrefix("http://") ? "<a href=\"\(word)\">\(word)</a>" : "\(word)")
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
