import HTML
import JOSE
import JSON

/// `/emulator/auth/handler`: the page an app's browser opens for a provider sign-in (reference
/// §4.1, Apple SDK wire §2). To a browser and to a test it is the official widget: the same
/// element ids, classes, global functions and messaging (`SignInWidget`). Unlike the official
/// one it mints the chosen account's token on the server, through the fake provider, so what the
/// app receives is signed; and without JavaScript every choice is a plain form post.
enum HeadfulSignInPage {
    /// The query parameter of the link that carries SHA-256(sessionId), checked by signInWithIdp.
    static let sessionHashParameter = "emulatorSessionHash"
    private static let accountsShown = 50

    // MARK: GET: the page

    static func show(_ request: OperationRequest) throws -> OperationResult {
        let context: Context
        do {
            context = try Context(request)
        } catch {
            // The official error, and for a person who opened the page by hand, where to go instead.
            let answer: JSONObject = ["error": .string(error.message), "console": .string(ConsoleContext.url(origin: request.origin))]
            return .json(["authEmulator": .object(answer)], status: error.httpStatus)
        }
        // The Android flow comes back here with `error` when no app took the intent.
        if let problem = request.queryValue("error"), !problem.isEmpty {
            return .html(SignInWidget.failurePage(problem))
        }
        let environment = request.environment
        let scope = context.scope(request)
        // The project's accounts with this provider, as the official widget lists them (so
        // `DELETE …/accounts` empties the list); the fake provider's own record of an account,
        // kept across resets, gives its real email and "hide my email" choice back. Apple's token
        // never carries the name (the app sends it once, beside the first sign-in, and it is the
        // user's): that name rather than none.
        let choices = try environment.read(in: scope) { transaction in
            try transaction.users.links(providerId: context.providerId, in: scope, limit: accountsShown).map { link in
                var choice: SignInWidget.Choice
                if let own = try transaction.store.fakeProviders.account(of: context.providerId, sub: link.rawId) {
                    choice = SignInWidget.Choice(sub: own.sub, email: own.email, name: own.name, picture: own.picture, hidesEmail: own.hidesEmail)
                } else {
                    choice = SignInWidget.Choice(
                        sub: link.rawId, email: link.email, name: link.displayName, picture: link.photoUrl,
                        hidesEmail: link.email.map(PrivateRelay.isRelayAddress) ?? false)
                }
                if choice.name == nil {
                    choice.name = try link.displayName
                        ?? transaction.users.user(providerId: context.providerId, rawId: link.rawId, in: scope)?.displayName
                }
                return choice
            }
        }
        return .html(SignInWidget(context: context, choices: choices).page)
    }

    // MARK: POST: the chosen account goes back to the app

    /// A form post (no JavaScript) is answered with a redirect or a delivery page; the widget's
    /// script asks for JSON (`Accept: application/json`) and delivers the event itself.
    static func complete(_ request: OperationRequest) throws -> OperationResult {
        let context = try Context(request)
        let form = request.body
        guard let email = try form.nonEmptyString("email"), EmailAddress.isValid(email) else {
            throw AuthError.invalid("Enter an email address with an @ to sign in.")
        }
        let environment = request.environment
        let scope = context.scope(request)
        let profile = ProviderProfile(context.providerId)
        var mint = MintRequest()
        mint.sub = try form.nonEmptyString("sub")
        mint.email = email
        mint.name = try form.nonEmptyString("name")
        mint.picture = try form.nonEmptyString("picture")
        mint.emailVerified = try form.nonEmptyString("emailVerified") != nil
        mint.hideEmail = try form.nonEmptyString("hideEmail") != nil
        if let screenName = try form.nonEmptyString("screenName") { mint.claims["screen_name"] = .string(screenName) }
        // The token must pass the project's own audience check, or sign-in would refuse it.
        let configured = try environment.providerAudiences.audiences(of: profile.providerId, in: scope, environment: environment)
        mint.audience = configured.first ?? (profile.family == .apple ? context.bundleId : nil)
        let minted = try TokenMint(environment: environment, profile: profile, origin: request.origin).mint(mint)

        var responseQuery = [("providerId", context.providerId), ("id_token", minted.idToken)]
        if profile.family == .genericOIDC, context.providerId.hasPrefix("saml.") {
            let saml: JSONObject = ["assertion": ["subject": ["nameId": .string(minted.email ?? email)]]]
            responseQuery.append(("SAMLResponse", saml.compactString))
        }
        if let sessionId = context.sessionId { responseQuery.append((sessionHashParameter, sessionId)) }
        let urlResponse = "\(request.origin)/emulator/auth/handler?\(URIComponent.query(responseQuery))"
        let delivery = try AuthEventDelivery(context: context, urlResponse: urlResponse, origin: request.origin)
        let answer = delivery.answer(event: authEvent(urlResponse: urlResponse, context: context), context: context)
        if request.accept?.firstRange(of: "application/json") != nil { return .json(answer) }
        if case .app(let location) = delivery { return .redirect(location: location) }
        return .html(SignInWidget.deliveryPage(answer))
    }

    /// What the web SDK's auth event manager reads (reference §4.1).
    private static func authEvent(urlResponse: String, context: Context) -> JSONObject {
        [
            "type": .string(context.authType ?? "signInWithRedirect"), "eventId": context.eventId.map { .string($0) } ?? .null,
            "urlResponse": .string(urlResponse), "sessionId": "ValueNotUsedByAuthEmulator", "postBody": "",
            "tenantId": context.tenantId.map { .string($0) } ?? .null, "error": .null,
        ]
    }

    // MARK: GET /emulator/auth/iframe: the web SDK's helper frame

    static func helperIframe(_ request: OperationRequest) throws -> OperationResult {
        guard let apiKey = request.queryValue("apiKey"), !apiKey.isEmpty,
            let appName = request.queryValue("appName"), !appName.isEmpty
        else { throw AuthError.invalid("missing apiKey or appName query parameters") }
        return .html(SignInWidget.helperIframePage(storageKey: "\(apiKey):\(appName)"))
    }

    // MARK: What the SDK put in the page's query

    struct Context {
        let apiKey: String
        let providerId: String
        let projectId: String
        let tenantId: String?
        let authType: String?
        let eventId: String?
        let bundleId: String?
        let androidPackage: String?
        let clientId: String?
        let appId: String?
        let appName: String?
        let redirectUrl: String?
        /// SHA-256 hex of the app's raw session id, as the Apple SDK sends it.
        let sessionId: String?
        let query: [(name: String, value: String)]

        init(_ request: OperationRequest) throws(AuthError) {
            func value(_ name: String) -> String? {
                guard let text = request.queryValue(name), !text.isEmpty else { return nil }
                return text
            }
            guard let apiKey = value("apiKey"), let providerId = value("providerId") else {
                throw AuthError.invalid("missing apiKey or providerId query parameters")
            }
            self.apiKey = apiKey
            self.providerId = providerId.lowercased()
            projectId = request.scope.projectId
            tenantId = value("tenantId") ?? value("tid")
            authType = value("authType")
            eventId = value("eventId")
            // `ibi` is present (maybe empty) whenever the Apple SDK opened the page.
            bundleId = request.queryValue("ibi").map { $0.isEmpty ? "app" : $0 }
            androidPackage = value("apn")
            clientId = value("clientId")
            appId = value("appId")
            appName = value("appName")
            redirectUrl = value("redirectUrl")
            sessionId = value("sessionId")
            query = request.query
        }

        func scope(_ request: OperationRequest) -> UserScope {
            UserScope(projectId: request.scope.projectId, tenantId: tenantId)
        }

        /// The page itself, query and all: where its forms post.
        var pagePath: String {
            "/emulator/auth/handler?\(URIComponent.query(query.map { ($0.name, $0.value) }))"
        }

        /// The web SDK's session-storage key and the helper frame's identity: `<apiKey>:<appName>`.
        var storageKey: String { "\(apiKey):\(appName ?? "")" }

        var isPopup: Bool { authType?.lowercased().contains("popup") == true }
    }
}

/// Where the chosen account's auth event goes, decided in the official widget's order: popups
/// answer the opener even when `redirectUrl` is set (the SDK always sets it), then Android, iOS,
/// and a web redirect (reference §4.1 "Delivery").
enum AuthEventDelivery {
    /// Posted to the opener's helper frame (`/emulator/auth/iframe`), which hands it to the SDK.
    case opener
    /// A link into the app: the Android intent or the iOS custom-scheme deep link.
    case app(location: String)
    /// Kept in session storage for the helper frame, then back to the app's page.
    case redirect(url: String)

    init(context: HeadfulSignInPage.Context, urlResponse: String, origin: String) throws(AuthError) {
        let authType = context.authType ?? "signInWithRedirect"
        if context.isPopup {
            self = .opener
        } else if let package = context.androidPackage {
            var intent = "intent://firebase.auth/#Intent;scheme=genericidp;package=\(package);S.authType=\(authType);"
            if let eventId = context.eventId { intent += "S.eventId=\(eventId);" }
            intent += "S.link=\(URIComponent.encode(urlResponse));B.encryptionEnabled=false;"
            intent += "S.browser_fallback_url=\(URIComponent.encode(origin + context.pagePath + "&error=App+not+found+for+intent"));end;"
            self = .app(location: intent)
        } else if let bundleId = context.bundleId {
            var inner = [("authType", authType), ("link", urlResponse)]
            if let eventId = context.eventId { inner.append(("eventId", eventId)) }
            let callback = "\(origin)/__/auth/callback?\(URIComponent.query(inner))"
            let (scheme, host) = Self.appScheme(context: context, bundleId: bundleId)
            self = .app(location: "\(scheme)://\(host)/link?deep_link_id=\(URIComponent.encode(callback))")
        } else if let redirectUrl = context.redirectUrl {
            // The page navigates there with the emulator's origin: a `javascript:` URL would run in it.
            let scheme = redirectUrl.prefix(while: { $0 != ":" }).lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw AuthError.invalid("redirectUrl must be an http or https URL.")
            }
            self = .redirect(url: redirectUrl)
        } else {
            throw AuthError.invalid("This feature is not implemented in Auth Emulator yet. Please use signInWithCredential for now.")
        }
    }

    /// The Apple SDK's callback scheme (wire §2.1): the reversed client id, or `app-<app id>`.
    private static func appScheme(context: HeadfulSignInPage.Context, bundleId: String) -> (scheme: String, host: String) {
        if let clientId = context.clientId {
            return (clientId.split(separator: ".").reversed().joined(separator: "."), "firebaseauth")
        }
        if let appId = context.appId { return ("app-" + appId.replacingEvery(":", with: "-"), "firebaseauth") }
        return (bundleId, "google")
    }

    /// What the page's script needs to deliver the event (`saveAuthEvent` in `SignInWidget`).
    func answer(event: JSONObject, context: HeadfulSignInPage.Context) -> JSONObject {
        var answer: JSONObject = [
            "authEvent": .object(event), "storageKey": .string(context.storageKey),
            "apiKey": .string(context.apiKey), "appName": context.appName.map { .string($0) } ?? .null,
        ]
        switch self {
        case .opener: answer["delivery"] = "opener"
        case .app(let location): answer["delivery"] = "app"; answer["location"] = .string(location)
        case .redirect(let url): answer["delivery"] = "redirect"; answer["location"] = .string(url)
        }
        return answer
    }
}

/// JSON inside a `<script type="application/json">` element: `<`, `>` and `&` are written as
/// `\u00XX`, so no value can close the element or open another.
struct ScriptJSON: Sendable {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }
}

extension HTML.Interpolation {
    mutating func appendInterpolation(_ json: ScriptJSON) {
        var text = json.object.compactString
        text = text.replacingEvery("<", with: "\\u003c").replacingEvery(">", with: "\\u003e")
            .replacingEvery("&", with: "\\u0026")
        appendInterpolation(HTML(trusted: text))
    }
}
