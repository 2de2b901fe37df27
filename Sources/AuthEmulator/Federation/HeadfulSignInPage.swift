import HTML
import JOSE
import JSON

/// `/emulator/auth/handler`: the page an app's browser opens for a provider sign-in (reference
/// §4.1, Apple SDK wire §2). It lists the provider's fake accounts and offers a form to add one;
/// choosing one is a form post, answered without JavaScript by a redirect into the app that
/// carries a token the fake provider signed. The web SDK's popup and redirect modes need the page
/// to talk to the opener or session storage, which only a script can do; that is the one place a
/// script runs.
enum HeadfulSignInPage {
    /// The query parameter of the link that carries SHA-256(sessionId), checked by signInWithIdp.
    static let sessionHashParameter = "emulatorSessionHash"
    private static let accountsShown = 50

    // MARK: GET: the page

    static func show(_ request: OperationRequest) throws -> OperationResult {
        let context = try Context(request)
        let environment = request.environment
        let scope = context.scope(request)
        let (ownAccounts, links) = try environment.read(in: scope) { transaction in
            (
                try transaction.store.fakeProviders.accounts(of: context.providerId, limit: accountsShown),
                try transaction.users.links(providerId: context.providerId, in: scope, limit: accountsShown)
            )
        }
        var choices = ownAccounts.map { Choice(sub: $0.sub, email: $0.email, name: $0.name, picture: $0.picture, hidesEmail: $0.hidesEmail) }
        for link in links where !choices.contains(where: { $0.sub == link.rawId }) {
            choices.append(Choice(sub: link.rawId, email: link.email, name: link.displayName, picture: link.photoUrl, hidesEmail: false))
        }
        return .html(page(context: context, choices: choices, action: "/emulator/auth/handler?\(URIComponent.query(request.query.map { ($0.name, $0.value) }))"))
    }

    private struct Choice {
        let sub: String
        let email: String?
        let name: String?
        let picture: String?
        let hidesEmail: Bool
    }

    private static func page(context: Context, choices: [Choice], action: String) -> HTML {
        let isApple = context.providerId == "apple.com"
        let accountForms = choices.map { choice -> HTML in
            let label = choice.name ?? "(No display name)"
            let hidden: HTML = choice.hidesEmail ? "<input type=\"hidden\" name=\"hideEmail\" value=\"on\">" : ""
            return """
                <li><form method="post" action="\(action)">
                <input type="hidden" name="sub" value="\(choice.sub)">
                <input type="hidden" name="email" value="\(choice.email)">
                <input type="hidden" name="name" value="\(choice.name)">
                <input type="hidden" name="picture" value="\(choice.picture)">
                <input type="hidden" name="emailVerified" value="on">\(hidden)
                <button type="submit"><strong>\(label)</strong><br><span>\(choice.email ?? "(no email)")</span></button>
                </form></li>
                """
        }
        let existing: HTML = choices.isEmpty
            ? "<p class=\"empty\">No \(context.providerId) accounts yet: add one below.</p>"
            : "<ul class=\"accounts\">\(accountForms)</ul>"
        let hideEmail: HTML = isApple
            ? "<label class=\"check\"><input type=\"checkbox\" name=\"hideEmail\"> Hide my email (a @privaterelay.appleid.com address that forwards to it)</label>"
            : ""
        let body: HTML = """
            <main>
            <p class="banner">Auth Emulator: a fake \(context.providerId) sign-in for project <strong>\(context.projectId)</strong>. No real account is used.</p>
            <h1>Sign in with \(context.providerId)</h1>
            <h2>Choose an account</h2>
            \(existing)
            <h2>Add new account</h2>
            <form method="post" action="\(action)" class="new">
            <label>Email <input type="email" name="email" required placeholder="ada@example.com"></label>
            <label>Display name <input type="text" name="name"></label>
            <label>Screen name <input type="text" name="screenName"></label>
            <label>Profile photo URL <input type="url" name="picture"></label>
            <label class="check"><input type="checkbox" name="emailVerified" checked> Email verified</label>
            \(hideEmail)
            <button type="submit">Sign in with \(context.providerId)</button>
            </form>
            </main>
            """
        return HTML.page(title: "Auth Emulator IDP Login Widget", style: style, body: body)
    }

    private static let style: HTML = """
        body{font:16px/1.4 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
        main{max-width:28rem;margin:0 auto;padding:1rem}
        .banner{background:#fff4ce;border:1px solid #e6c200;padding:.5rem .75rem;border-radius:6px;font-size:.9rem}
        ul.accounts{list-style:none;padding:0}ul.accounts li{margin:.4rem 0}
        ul.accounts button{width:100%;text-align:left;padding:.6rem .8rem;background:#fff;border:1px solid #ccd;border-radius:6px;cursor:pointer}
        form.new label{display:block;margin:.5rem 0}form.new input[type=email],form.new input[type=text],form.new input[type=url]{display:block;width:100%;box-sizing:border-box;padding:.45rem}
        .check input{margin-right:.4rem}button[type=submit]{font:inherit}
        form.new button{margin-top:.75rem;padding:.6rem 1rem;background:#1a73e8;color:#fff;border:0;border-radius:6px}
        """

    // MARK: POST: the chosen account goes back to the app

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
        return try deliver(urlResponse, context: context, origin: request.origin)
    }

    /// Hands the result to whichever client opened the page (reference §4.1 "Delivery").
    private static func deliver(_ urlResponse: String, context: Context, origin: String) throws -> OperationResult {
        let authType = context.authType ?? "signInWithRedirect"
        if let bundleId = context.bundleId, context.androidPackage == nil, !authType.lowercased().contains("popup") {
            var inner = [("authType", authType), ("link", urlResponse)]
            if let eventId = context.eventId { inner.append(("eventId", eventId)) }
            let callback = "\(origin)/__/auth/callback?\(URIComponent.query(inner))"
            let (scheme, host) = appScheme(context: context, bundleId: bundleId)
            return .redirect(location: "\(scheme)://\(host)/link?deep_link_id=\(URIComponent.encode(callback))")
        }
        if let package = context.androidPackage {
            var intent = "intent://firebase.auth/#Intent;scheme=genericidp;package=\(package);S.authType=\(authType);"
            if let eventId = context.eventId { intent += "S.eventId=\(eventId);" }
            intent += "S.link=\(URIComponent.encode(urlResponse));B.encryptionEnabled=false;"
            intent += "S.browser_fallback_url=\(URIComponent.encode(context.pageURL(origin: origin) + "&error=App+not+found+for+intent"));end;"
            return .redirect(location: intent)
        }
        let event: JSONObject = [
            "type": .string(authType), "eventId": context.eventId.map { .string($0) } ?? .null,
            "urlResponse": .string(urlResponse), "sessionId": "ValueNotUsedByAuthEmulator", "postBody": "",
            "tenantId": context.tenantId.map { .string($0) } ?? .null, "error": .null,
        ]
        if authType.lowercased().contains("popup") || context.redirectUrl != nil {
            return .html(webDelivery(event: event, context: context))
        }
        throw AuthError.invalid("This feature is not implemented in Auth Emulator yet. Please use signInWithCredential for now.")
    }

    /// The Apple SDK's callback scheme (wire §2.1): the reversed client id, or `app-<app id>`.
    private static func appScheme(context: Context, bundleId: String) -> (scheme: String, host: String) {
        if let clientId = context.clientId {
            return (clientId.split(separator: ".").reversed().joined(separator: "."), "firebaseauth")
        }
        if let appId = context.appId { return ("app-" + appId.replacingOccurrences(of: ":", with: "-"), "firebaseauth") }
        return (bundleId, "google")
    }

    /// The web SDK's popup (post to the opener's helper iframe) and redirect (session storage,
    /// then back to `redirectUrl`) deliveries: only a script can do either.
    private static func webDelivery(event: JSONObject, context: Context) -> HTML {
        let storageKey = "\(context.apiKey):\(context.appName ?? "")"
        let payload: JSONObject = [
            "authEvent": .object(event), "storageKey": .string(storageKey),
            "redirectUrl": context.redirectUrl.map { .string($0) } ?? .null,
        ]
        let body: HTML = """
            <main><p>Signing you in…</p><p id="status"></p></main>
            <script type="application/json" id="auth-result">\(ScriptJSON(payload))</script>
            <script>
            (function () {
              var result = JSON.parse(document.getElementById('auth-result').textContent);
              if (result.redirectUrl) {
                sessionStorage.setItem('firebase:redirectEvent:' + result.storageKey, JSON.stringify(result.authEvent));
                window.location.href = result.redirectUrl;
                return;
              }
              var opener = window.opener;
              if (!opener) { document.getElementById('status').textContent = 'The window that opened this page is gone.'; return; }
              for (var i = 0; i < opener.frames.length; i++) {
                try {
                  opener.frames[i].postMessage({data: {authEvent: result.authEvent, storageKey: result.storageKey},
                    eventId: String(Math.floor(Math.random() * 1e15)), eventType: 'sendAuthEvent'}, '*');
                } catch (e) {}
              }
              window.close();
            })();
            </script>
            """
        return HTML.page(title: "Auth Emulator IDP Login Widget", body: body)
    }

    // MARK: GET /emulator/auth/iframe: the web SDK's helper frame

    static func helperIframe(_ request: OperationRequest) throws -> OperationResult {
        guard let apiKey = request.queryValue("apiKey"), !apiKey.isEmpty,
            let appName = request.queryValue("appName"), !appName.isEmpty
        else { throw AuthError.invalid("missing apiKey or appName query parameters") }
        let storageKey: JSONObject = ["key": .string("firebase:redirectEvent:\(apiKey):\(appName)")]
        let body: HTML = """
            <script type="application/json" id="storage">\(ScriptJSON(storageKey))</script>
            <script src="https://apis.google.com/js/api.js"></script>
            <script>
            (function () {
              var storageKey = JSON.parse(document.getElementById('storage').textContent).key;
              gapi.load('gapi.iframes', function () {
                var filter = gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER;
                var context = gapi.iframes.getContext();
                var parent = context.getParentIframe();
                context.register('webStorageSupport', function () { return {status: 'ACK', webStorageSupport: true}; }, filter);
                function send(authEvent) { parent.send('authEvent', {type: 'authEvent', authEvent: authEvent}, null, filter); }
                window.addEventListener('message', function (e) {
                  if (e.data && e.data.eventType === 'sendAuthEvent' && e.data.data) { send(e.data.data.authEvent); }
                });
                var stored = sessionStorage.getItem(storageKey);
                sessionStorage.removeItem(storageKey);
                send(stored ? JSON.parse(stored) : {type: 'unknown', error: {code: 'auth/no-auth-event'}});
              });
            })();
            </script>
            """
        return .html(HTML.page(title: "Auth Emulator Helper Iframe", body: body))
    }

    // MARK: What the SDK put in the page's query

    private struct Context {
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

        func pageURL(origin: String) -> String {
            "\(origin)/emulator/auth/handler?\(URIComponent.query(query.map { ($0.name, $0.value) }))"
        }
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
        text = text.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
        appendInterpolation(HTML(trusted: text))
    }
}
