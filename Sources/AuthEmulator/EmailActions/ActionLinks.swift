/// The links an email action carries (reference §5.2, Apple SDK wire §4): the emulator's action
/// link, and, when the app handles the code itself, the link a mobile app receives.
struct ActionLinks: Sendable, Equatable {
    /// `http://<host>/emulator/action?mode=…`: what `sendOobCode` answers and the email shows.
    let oobLink: String
    /// The production-shaped link (Hosting's `/__/auth/links` or Dynamic Links) for apps that
    /// parse it: only in the outbox message, so a click never leaves localhost.
    let appLink: String?

    /// What ActionCodeSettings said about the app that should open the link.
    struct AppSettings: Sendable, Equatable {
        var canHandleCodeInApp = false
        var iOSBundleId: String?
        var androidPackageName: String?
        var androidInstallApp = false
        var androidMinimumVersion: String?
        /// The Hosting domain the link opens on (`linkDomain`), or the legacy Dynamic Links domain.
        var linkDomain: String?
        var dynamicLinkDomain: String?
    }

    init(
        origin: String, requestType: OobRequestType, code: String, apiKey: String, continueUrl: String?,
        tenantId: String?, projectId: String, app: AppSettings
    ) {
        // Each parameter is encoded once, for both orders below (the two encodings of the same
        // pairs were a sixth of a sendOobCode's action links).
        let head = FormURLEncoding.encode([(name: "mode", value: requestType.mode), (name: "lang", value: "en"), (name: "oobCode", value: code)])
        let key = FormURLEncoding.encode([(name: "apiKey", value: apiKey)])
        var tail: [(name: String, value: String)] = []
        if let continueUrl { tail.append((name: "continueUrl", value: continueUrl)) }
        if let tenantId { tail.append((name: "tenantId", value: tenantId)) }
        let rest = tail.isEmpty ? "" : "&" + FormURLEncoding.encode(tail)
        oobLink = "\(origin)/emulator/action?\(head)&\(key)\(rest)"
        guard app.canHandleCodeInApp else {
            appLink = nil
            return
        }
        // Inside a wrapper, the inner link's first parameter is swallowed into `link=` when the
        // Apple SDK splits the once-decoded query (wire §4.1), so it must not be mode or oobCode:
        // production's order, apiKey first.
        let oobLink = "\(origin)/emulator/action?\(key)&\(head)\(rest)"
        if let dynamicLinkDomain = app.dynamicLinkDomain, app.linkDomain == nil {
            // The Dynamic Links form that older SDKs ask for: the action link wrapped in `link`.
            var wrapper: [(name: String, value: String)] = [(name: "link", value: oobLink)]
            if let package = app.androidPackageName {
                wrapper.append((name: "apn", value: package))
                if let version = app.androidMinimumVersion { wrapper.append((name: "amv", value: version)) }
            }
            if let bundleId = app.iOSBundleId { wrapper.append((name: "ibi", value: bundleId)) }
            appLink = "https://\(dynamicLinkDomain)/?\(FormURLEncoding.encode(wrapper))"
        } else {
            // Firebase Hosting's link handler, on `linkDomain` or the project's default domain.
            let domain = app.linkDomain ?? "\(projectId).firebaseapp.com"
            appLink = "https://\(domain)/__/auth/links?\(FormURLEncoding.encode([(name: "link", value: oobLink)]))"
        }
    }
}

/// Who Firebase's emails come from.
enum EmailSender {
    static func defaultAddress(projectId: String) -> String { "noreply@\(projectId).firebaseapp.com" }
}
