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
            let requestedAt = values.requestedAt.rfc3339
            subject = "Sign in to \(values.appName) requested at \(requestedAt)"
            paragraphs = [
                "We received a request to sign in to \(values.appName) using this email address, at \(requestedAt). If you want to sign in with your \(values.email) account, click this link:",
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

        // Each body is written in one pass into storage sized once (every sendOobCode renders one
        // email): joined arrays and a fragment per paragraph cost a quarter more.
        var text = greeting
        text.reserveCapacity(greeting.utf8.count + closing.utf8.count + 2 * values.link.utf8.count + 512)
        for paragraph in paragraphs {
            text += "\n\n"
            text += paragraph == link ? values.link : paragraph
        }
        text += "\n\n"
        text += closing

        var body = HTML.Interpolation(literalCapacity: 2 * values.link.utf8.count + 640, interpolationCount: 0)
        body.appendLiteral("<p>")
        body.appendInterpolation(greeting)
        body.appendLiteral("</p>\n")
        for paragraph in paragraphs {
            if paragraph == link {
                body.appendLiteral("<p><a href=\"")
                body.appendInterpolation(values.link)
                body.appendLiteral("\">")
                body.appendInterpolation(values.link)
                body.appendLiteral("</a></p>")
            } else {
                body.appendLiteral("<p>")
                body.appendInterpolation(paragraph)
                body.appendLiteral("</p>")
            }
        }
        body.appendLiteral("\n<p>Thanks,<br>Your ")
        body.appendInterpolation(values.appName)
        body.appendLiteral(" team</p>")
        return RenderedEmail(subject: subject, text: text, html: HTML.page(title: subject, body: HTML(stringInterpolation: body)).markup)
    }

    /// Stands for the link inside the paragraph lists above.
    private static let link = "\u{0}link\u{0}"
}
