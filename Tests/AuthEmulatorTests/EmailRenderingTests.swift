import HTML
import Testing

@testable import AuthEmulator

/// The email bodies and action links sendOobCode stores, pinned byte for byte: each was rewritten to
/// write in one pass, and must still give exactly what the straightforward versions below gave.
@Suite struct EmailRenderingTests {
    static let requestedAt = Instant(millisecondsSinceEpoch: 1_764_700_000_123)

    static let valueSets: [EmailTemplates.Values] = [
        .init(
            appName: "project-demo-project", email: "ada@example.com", link: "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=abc&apiKey=fake-api-key",
            requestedAt: requestedAt, lifetime: "6 hours"),
        .init(
            appName: "project-<b>&\"quoted\"'", email: "o'brien&co@example.com", newEmail: "new<1>@example.com",
            displayName: "Zoë <script>alert(1)</script>", link: "http://h/emulator/action?mode=x&a=\"<>\"",
            requestedAt: Instant(millisecondsSinceEpoch: 0), lifetime: "3 days"),
        .init(appName: "", email: "", displayName: "", link: "", requestedAt: requestedAt, lifetime: ""),
    ]

    @Test func everyTemplateRendersAsTheStraightforwardRendererDid() {
        for type in OobRequestType.allCases {
            for values in Self.valueSets {
                #expect(EmailTemplates.render(type, values) == Reference.render(type, values), "\(type) \(values.appName)")
            }
        }
    }

    @Test func aSignInEmailReadsAsBefore() {
        let rendered = EmailTemplates.render(.emailSignIn, Self.valueSets[0])
        #expect(rendered.subject == "Sign in to project-demo-project requested at 2025-12-02T18:26:40.123Z")
        #expect(rendered.text == """
            Hello,

            We received a request to sign in to project-demo-project using this email address, at 2025-12-02T18:26:40.123Z. If you want to sign in with your ada@example.com account, click this link:

            http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=abc&apiKey=fake-api-key

            If you did not request this link, you can safely ignore this email.

            This link expires in 6 hours.

            Thanks,
            Your project-demo-project team
            """)
        #expect(rendered.html.contains("""
            <body><p>Hello,</p>
            <p>We received a request to sign in to project-demo-project using this email address, at 2025-12-02T18:26:40.123Z. If you want to sign in with your ada@example.com account, click this link:</p>\
            <p><a href="http://127.0.0.1:9099/emulator/action?mode=signIn&amp;lang=en&amp;oobCode=abc&amp;apiKey=fake-api-key">\
            http://127.0.0.1:9099/emulator/action?mode=signIn&amp;lang=en&amp;oobCode=abc&amp;apiKey=fake-api-key</a></p>\
            <p>If you did not request this link, you can safely ignore this email.</p><p>This link expires in 6 hours.</p>
            <p>Thanks,<br>Your project-demo-project team</p></body></html>
            """))
    }

    @Test func actionLinksAreBuiltAsTheStraightforwardBuilderDid() {
        let apps: [ActionLinks.AppSettings] = [
            .init(),
            .init(canHandleCodeInApp: true, iOSBundleId: "com.example.app"),
            .init(canHandleCodeInApp: true, linkDomain: "links.example.com"),
            .init(
                canHandleCodeInApp: true, iOSBundleId: "com.example.app", androidPackageName: "com.example.android",
                androidMinimumVersion: "12", dynamicLinkDomain: "example.page.link"),
            .init(canHandleCodeInApp: true, androidPackageName: "com.example.android", dynamicLinkDomain: "example.page.link"),
        ]
        for type in OobRequestType.allCases {
            for app in apps {
                for (continueUrl, tenantId) in [(nil, nil), ("https://app.example.com/finish?x=1 2&y=ü", "tenant-1"), (nil, "t")] as [(String?, String?)] {
                    let links = ActionLinks(
                        origin: "http://127.0.0.1:9099", requestType: type, code: "c0de_-", apiKey: "key&=",
                        continueUrl: continueUrl, tenantId: tenantId, projectId: "demo-project", app: app)
                    let expected = Reference.links(
                        origin: "http://127.0.0.1:9099", requestType: type, code: "c0de_-", apiKey: "key&=",
                        continueUrl: continueUrl, tenantId: tenantId, projectId: "demo-project", app: app)
                    #expect(links.oobLink == expected.oobLink)
                    #expect(links.appLink == expected.appLink)
                }
            }
        }
    }

    @Test func anAppLinkReadsAsBefore() {
        let links = ActionLinks(
            origin: "http://127.0.0.1:9099", requestType: .emailSignIn, code: "CODE", apiKey: "fake-api-key",
            continueUrl: "https://app.example.com/finishSignIn", tenantId: nil, projectId: "demo-project",
            app: .init(canHandleCodeInApp: true, iOSBundleId: "com.example.app"))
        #expect(links.oobLink
            == "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=CODE&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.example.com%2FfinishSignIn")
        #expect(links.appLink
            == "https://demo-project.firebaseapp.com/__/auth/links?link=http%3A%2F%2F127.0.0.1%3A9099%2Femulator%2Faction%3FapiKey%3Dfake-api-key%26mode%3DsignIn%26lang%3Den%26oobCode%3DCODE%26continueUrl%3Dhttps%253A%252F%252Fapp.example.com%252FfinishSignIn")
    }

    /// The renderer and link builder as they were before they were rewritten for speed.
    enum Reference {
        private static let link = "\u{0}link\u{0}"

        static func render(_ type: OobRequestType, _ values: EmailTemplates.Values) -> RenderedEmail {
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

        static func links(
            origin: String, requestType: OobRequestType, code: String, apiKey: String, continueUrl: String?,
            tenantId: String?, projectId: String, app: ActionLinks.AppSettings
        ) -> (oobLink: String, appLink: String?) {
            var query = [("mode", requestType.mode), ("lang", "en"), ("oobCode", code), ("apiKey", apiKey)]
            if let continueUrl { query.append(("continueUrl", continueUrl)) }
            if let tenantId { query.append(("tenantId", tenantId)) }
            let oobLink = "\(origin)/emulator/action?\(FormURLEncoding.encode(query))"
            guard app.canHandleCodeInApp else { return (oobLink, nil) }
            let inner = [("apiKey", apiKey)] + query.filter { $0.0 != "apiKey" }
            let innerLink = "\(origin)/emulator/action?\(FormURLEncoding.encode(inner))"
            if let dynamicLinkDomain = app.dynamicLinkDomain, app.linkDomain == nil {
                var wrapper = [("link", innerLink)]
                if let package = app.androidPackageName {
                    wrapper.append(("apn", package))
                    if let version = app.androidMinimumVersion { wrapper.append(("amv", version)) }
                }
                if let bundleId = app.iOSBundleId { wrapper.append(("ibi", bundleId)) }
                return (oobLink, "https://\(dynamicLinkDomain)/?\(FormURLEncoding.encode(wrapper))")
            }
            let domain = app.linkDomain ?? "\(projectId).firebaseapp.com"
            return (oobLink, "https://\(domain)/__/auth/links?\(FormURLEncoding.encode([("link", innerLink)]))")
        }
    }
}

/// Which recipients go through Apple's simulated relay: ASCII addresses are read by bytes, others by
/// Characters as before, with the same answers.
@Suite struct PrivateRelayAddressTests {
    @Test func relayDomainsAreRecognisedInAnyCaseAndNothingElse() {
        for relay in [
            "abc@privaterelay.appleid.com", "ABC@PrivateRelay.AppleID.com", "a@b@private.icloud.com", "x@PRIVATE.ICLOUD.COM",
            "zoë@privaterelay.appleid.com",
        ] {
            #expect(PrivateRelay.isRelayAddress(relay), "\(relay)")
        }
        for other in [
            "abc@example.com", "privaterelay.appleid.com", "abc@", "@", "", "abc@privaterelay.appleid.com.evil",
            "abc@xprivaterelay.appleid.com", "abc@private.icloud.com@example.com", "abc@privaterelay.appleid.cöm",
            "abc@privaterelay.appleid.com\u{301}",
        ] {
            #expect(!PrivateRelay.isRelayAddress(other), "\(other)")
        }
    }
}
