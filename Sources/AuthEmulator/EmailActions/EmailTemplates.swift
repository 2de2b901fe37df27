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
        let greeting = values.displayName.map { "Hello \($0)," } ?? "Hello,"
        let subject: String
        var paragraphs: [String]
        switch type {
        case .verifyEmail:
            subject = "Verify your email for \(values.appName)"
            paragraphs = ["Follow this link to verify your email address.", link,
                "If you didn’t ask to verify this address, you can ignore this email."]
        case .passwordReset:
            subject = "Reset your password for \(values.appName)"
            paragraphs = ["Follow this link to reset your \(values.appName) password for your \(values.email) account.", link,
                "If you didn’t ask to reset your password, you can ignore this email."]
        case .emailSignIn:
            subject = "Sign in to \(values.appName) requested at \(values.requestedAt.rfc3339)"
            paragraphs = [
                "We received a request to sign in to \(values.appName) using this email address, at \(values.requestedAt.rfc3339). If you want to sign in with your \(values.email) account, click this link:",
                link, "If you did not request this link, you can safely ignore this email.",
            ]
        case .verifyAndChangeEmail:
            subject = "Verify your new email for \(values.appName)"
            paragraphs = [
                "Follow this link to verify your new email address \(values.newEmail ?? values.email) for your \(values.appName) account.",
                link, "If you didn’t ask to change your email, you can ignore this email.",
            ]
        case .recoverEmail:
            subject = "Your sign-in email was changed for \(values.appName)"
            paragraphs = [
                "Your sign-in email for \(values.appName) was changed to \(values.newEmail ?? "a new address").",
                "If you didn’t ask to change your email, follow this link to reset your sign-in email.", link,
            ]
        }
        paragraphs.append("This link expires in \(values.lifetime).")
        let closing = "Thanks,\nYour \(values.appName) team"

        let text = ([greeting] + paragraphs.map { $0 == link ? values.link : $0 } + [closing]).joined(separator: "\n\n")
        let htmlParagraphs = paragraphs.map { paragraph -> HTML in
            paragraph == link ? "<p><a href=\"\(values.link)\">\(values.link)</a></p>" : "<p>\(paragraph)</p>"
        }
        let body: HTML = """
            <p>\(greeting)</p>
            \(htmlParagraphs)
            <p>Thanks,<br>Your \(values.appName) team</p>
            """
        return RenderedEmail(subject: subject, text: text, html: HTML.page(title: subject, body: body).markup)
    }

    /// Stands for the link inside the paragraph lists above.
    private static let link = "\u{0}link\u{0}"
}
