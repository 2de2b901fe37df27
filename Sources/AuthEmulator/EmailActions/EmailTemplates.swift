import HTML

/// A rendered email: what the outbox shows.
struct RenderedEmail: Sendable, Equatable {
    let subject: String
    let text: String
    let html: String
}

/// Firebase's default email templates, in production's words, for each action.
enum EmailTemplates {
    struct Values {
        /// `%APP_NAME%`: the project's public name; production defaults to `project-<id>`.
        let appName: String
        let email: String
        var newEmail: String?
        var displayName: String?
        let link: String
        let requestedAt: Instant
        let lifetime: String
    }

    static func render(_ type: OobRequestType, _ values: Values) -> RenderedEmail {
        // Both bodies are written paragraph by paragraph into byte buffers sized once, the HTML
        // escaped as it goes; strings are made once at the end. Interpolated paragraphs, String
        // appends and an HTML page interpolated around its body cost ~36k instructions a
        // sendOobCode (callgrind, send-signin-link); this ~8k.
        var bodies = EmailBodies(linkLength: values.link.utf8.count)
        bodies.greeting(displayName: values.displayName)
        let subject: String
        switch type {
        case .verifyEmail:
            subject = "Verify your email for \(values.appName)"
            bodies.paragraph("Follow this link to verify your email address.")
            bodies.link(values.link)
            bodies.paragraph("If you didn’t ask to verify this address, you can ignore this email.")
        case .passwordReset:
            subject = "Reset your password for \(values.appName)"
            bodies.paragraph("Follow this link to reset your ", values.appName, " password for your ", values.email, " account.")
            bodies.link(values.link)
            bodies.paragraph("If you didn’t ask to reset your password, you can ignore this email.")
        case .emailSignIn:
            let requestedAt = values.requestedAt.rfc3339
            subject = "Sign in to \(values.appName) requested at \(requestedAt)"
            bodies.paragraph(
                "We received a request to sign in to ", values.appName, " using this email address, at ", requestedAt,
                ". If you want to sign in with your ", values.email, " account, click this link:")
            bodies.link(values.link)
            bodies.paragraph("If you did not request this link, you can safely ignore this email.")
        case .verifyAndChangeEmail:
            subject = "Verify your new email for \(values.appName)"
            bodies.paragraph(
                "Follow this link to verify your new email address ", values.newEmail ?? values.email, " for your ",
                values.appName, " account.")
            bodies.link(values.link)
            bodies.paragraph("If you didn’t ask to change your email, you can ignore this email.")
        case .recoverEmail:
            subject = "Your sign-in email was changed for \(values.appName)"
            bodies.paragraph(
                "Your sign-in email for ", values.appName, " was changed to ", values.newEmail ?? "a new address", ".")
            bodies.paragraph("If you didn’t ask to change your email, follow this link to reset your sign-in email.")
            bodies.link(values.link)
        }
        bodies.paragraph("This link expires in ", values.lifetime, ".")
        bodies.closing(appName: values.appName)
        return RenderedEmail(subject: subject, text: bodies.text, html: bodies.htmlPage(title: subject))
    }
}

/// An email's text and HTML bodies, written side by side: each piece once as text and once
/// escaped as HTML (`HTML.page`'s markup around the body, byte for byte).
private struct EmailBodies {
    private var textBytes: [UInt8] = []
    private var body: [UInt8] = []

    init(linkLength: Int) {
        textBytes.reserveCapacity(2 * linkLength + 640)
        body.reserveCapacity(3 * linkLength + 800)
    }

    /// "Hello <name>," (or "Hello,"), the first paragraph of both bodies.
    mutating func greeting(displayName: String?) {
        body.append("<p>")
        if let displayName {
            write("Hello ")
            write(displayName)
            write(",")
        } else {
            write("Hello,")
        }
        body.append("</p>\n")
    }

    /// A paragraph of text, its pieces one after another.
    mutating func paragraph(_ pieces: String...) {
        textBytes.append("\n\n")
        body.append("<p>")
        for piece in pieces { write(piece) }
        body.append("</p>")
    }

    /// The action link: a line of its own in the text, a link to itself in the HTML.
    mutating func link(_ link: String) {
        textBytes.append("\n\n")
        append(link, to: &textBytes)
        body.append("<p><a href=\"")
        HTML.appendEscaped(link, to: &body)
        body.append("\">")
        HTML.appendEscaped(link, to: &body)
        body.append("</a></p>")
    }

    mutating func closing(appName: String) {
        textBytes.append("\n\nThanks,\nYour ")
        append(appName, to: &textBytes)
        textBytes.append(" team")
        body.append("\n<p>Thanks,<br>Your ")
        HTML.appendEscaped(appName, to: &body)
        body.append(" team</p>")
    }

    var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// `HTML.page(title:body:)` around the body written so far.
    func htmlPage(title: String) -> String {
        String(decoding: HTML.pageBytes(title: title, bodyMarkup: body), as: UTF8.self)
    }

    /// A piece of text, in both bodies.
    private mutating func write(_ piece: String) {
        append(piece, to: &textBytes)
        HTML.appendEscaped(piece, to: &body)
    }

    private func append(_ piece: String, to bytes: inout [UInt8]) {
        var piece = piece
        piece.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
