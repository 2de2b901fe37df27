import HTML
import JSON

/// The markup of the sign-in widget at `/emulator/auth/handler`, its delivery page and the web
/// SDK's helper frame. Browser tests (the JS SDK's WebDriver page object, teams' Playwright and
/// Cypress suites) find the official widget's hooks here: `.js-new-account`, `#email-input`,
/// `#display-name-input`, `#screen-name-input`, `#profile-photo-input`, `#sign-in`,
/// `#accounts-list li`, and the global `toggleForm`. Everything a user typed is escaped by `HTML`;
/// the scripts are fixed text (`SignInWidgetScript`) and read their data from JSON elements.
struct SignInWidget {
    struct Choice {
        let sub: String
        let email: String?
        var name: String?
        let picture: String?
        /// An Apple account that hides its email: the app gets a relay address that forwards to it.
        let hidesEmail: Bool
    }

    let context: HeadfulSignInPage.Context
    let choices: [Choice]

    static let title = "Auth Emulator IDP Login Widget"

    /// `google.com` → `Google.com`, as the official widget names the provider.
    private var providerName: String { context.providerId.prefix(1).uppercased() + context.providerId.dropFirst() }

    var page: HTML {
        let body: HTML = """
            <noscript><style>#add-user{display:block}.js-only{display:none}</style></noscript>
            <div id="content">
            <div class="content-wrapper"><div id="title"><span>Sign-in with <span class="js-provider-id provider-name">\(providerName)</span></span></div>
            <p class="callout emulator-note vs">Auth Emulator: a fake sign-in for project <strong>\(context.projectId)</strong>. No real account is used.</p></div>
            \(accountsList)
            \(addUser)
            <div class="content-wrapper"><p class="callout vs" id="widget-status" hidden></p>
            <p class="callout callout-warning" id="widget-error" role="alert" hidden></p></div>
            </div>
            <script>\(SignInWidgetScript.delivery)\(SignInWidgetScript.widget)</script>
            """
        return HTML.page(title: Self.title, style: Self.style, body: body)
    }

    private var accountsList: HTML {
        let helpText: HTML = choices.isEmpty
            ? "No \(providerName) accounts exist in the Auth Emulator."
            : "Please select an existing account in the Auth Emulator or add a new one:"
        return """
            <div id="accounts-list">
            <div class="content-wrapper">\(nativeFlowWarning)
            <p class="subtitle js-accounts-help-text">\(helpText)</p></div>
            <ul class="mdc-list list mdc-list--two-line mdc-list--avatar-list">
            \(choices.map(accountItem))
            <li id="add-account-button" class="js-new-account mdc-list-item"><a class="mdc-button mdc-button--outlined" href="#add-user"><span class="mdc-button__icon" aria-hidden="true">+</span> <span class="mdc-button__label">Add new account</span></a></li>
            </ul>
            </div>
            """
    }

    /// The official widget's warning where only the emulator offers a generic-IdP flow; hidden,
    /// but present, otherwise, as there.
    private var nativeFlowWarning: HTML {
        let isNativeApp = context.androidPackage != nil || context.bundleId != nil
        let provider: String
        switch context.providerId {
        case "facebook.com" where isNativeApp: provider = "Facebook"
        case "apple.com" where context.bundleId != nil: provider = "Apple"
        default:
            return "<div class=\"callout callout-warning vs js-signin-warning\" style=\"display:none\"><div class=\"content\"></div></div>"
        }
        let production = provider + (context.androidPackage != nil ? " Android SDK" : " iOS SDK")
        return """
            <div class="callout callout-warning vs js-signin-warning"><div class="content">Sign-in with \(provider) via generic IDP is only supported in the Auth Emulator; remember to switch to \(production) for production Firebase projects.</div></div>
            """
    }

    /// One account: a form of hidden fields, so a click signs in with or without JavaScript.
    /// `id="reuse-email"` repeats on every account, as in the official widget, where tests find it.
    private func accountItem(_ choice: Choice) -> HTML {
        let photo: HTML = choice.picture.map { "<img src=\"\($0)\" alt=\"\">" } ?? ""
        // A real email the token hides again; a relay address (from a user's link) is sent as it is.
        let hidesAgain = choice.hidesEmail && !(choice.email.map(PrivateRelay.isRelayAddress) ?? false)
        let hidden: HTML = hidesAgain ? "<input type=\"hidden\" name=\"hideEmail\" value=\"on\">" : ""
        let hides: HTML = choice.hidesEmail ? "<span class=\"hides-email\">Hides email: the app gets a private relay address</span>" : ""
        return """
            <li class="js-reuse-account mdc-list-item" tabindex="0"><form method="post" action="\(context.pagePath)">
            <input type="hidden" name="sub" value="\(choice.sub)">
            <input type="hidden" name="email" value="\(choice.email)">
            <input type="hidden" name="name" value="\(choice.name)">
            <input type="hidden" name="picture" value="\(choice.picture)">
            <input type="hidden" name="emailVerified" value="on">\(hidden)
            <button type="submit" class="account"><span class="mdc-list-item__graphic profile-photo"><span aria-hidden="true">\(initial(of: choice))</span>\(photo)</span>
            <span class="mdc-list-item__text"><span class="mdc-list-item__primary-text">\(choice.name ?? "(No display name)")</span>
            <span class="mdc-list-item__secondary-text fallback-secondary-text" id="reuse-email">\(choice.email ?? "")</span>\
            \(hides)</span></button>
            </form></li>
            """
    }

    private func initial(of choice: Choice) -> String {
        (choice.name ?? choice.email).flatMap { $0.first }.map { String($0).uppercased() } ?? "?"
    }

    private var addUser: HTML {
        let hideEmail: HTML = context.providerId == "apple.com"
            ? "<label class=\"check\"><input type=\"checkbox\" name=\"hideEmail\"> Hide my email (a @privaterelay.appleid.com address that forwards to it)</label>"
            : ""
        return """
            <div id="add-user"><div class="content-wrapper" id="form-content">
            <div class="callout vs"><div class="content">Custom claims can be added after an account is created</div></div>
            <button id="autogen-button" class="vs mdc-button mdc-button--outlined js-only" type="button"><span class="mdc-button__label">Auto-generate user information</span></button>
            <form id="main-form" method="post" action="\(context.pagePath)" class="new">
            \(field("email-input", name: "email", label: "Email", autocomplete: "email"))
            <span class="error-info vs" id="email-error"></span>
            \(field("display-name-input", name: "name", label: "Display name (optional)", autocomplete: "name"))
            \(field("screen-name-input", name: "screenName", label: "Screen name (optional)", autocomplete: "username"))
            \(field("profile-photo-input", name: "picture", label: "Profile photo URL (optional)", autocomplete: "photo"))
            <label class="check"><input type="checkbox" name="emailVerified" checked> Email verified</label>
            \(hideEmail)
            <div id="main-action" class="vs">
            <button class="mdc-button js-only" id="back-button" type="button"><span class="mdc-button__label">← Back</span></button>
            <button class="mdc-button mdc-button--raised" id="sign-in" type="submit"><span class="mdc-button__label">Sign in with <span class="js-provider-id provider-name">\(providerName)</span></span></button>
            </div>
            </form>
            </div></div>
            """
    }

    private func field(_ id: String, name: String, label: String, autocomplete: String) -> HTML {
        """
        <label class="form-label" for="\(id)">\(label)</label>
        <span class="mdc-text-field mdc-text-field--outlined vs"><input id="\(id)" name="\(name)" type="text" class="mdc-text-field__input" autocomplete="\(autocomplete)"></span>
        """
    }

    // MARK: Other pages

    /// After a form post from a web flow: the same delivery as the widget's script, on a new page.
    static func deliveryPage(_ answer: JSONObject) -> HTML {
        let body: HTML = """
            <div id="content"><p class="callout vs" id="widget-status">Signing you in…</p>
            <p class="callout callout-warning" id="widget-error" role="alert" hidden></p></div>
            <script type="application/json" id="auth-answer">\(ScriptJSON(answer))</script>
            <script>\(SignInWidgetScript.delivery)\(SignInWidgetScript.deliverEmbeddedAnswer)</script>
            """
        return HTML.page(title: title, style: style, body: body)
    }

    /// The official widget stops with the error in red; so does this page, without a script.
    static func failurePage(_ problem: String) -> HTML {
        let body: HTML = "<div id=\"content\"><p class=\"callout callout-warning\" role=\"alert\">Auth Emulator Internal Error: \(problem)</p></div>"
        return HTML.page(title: title, style: style, body: body)
    }

    /// `/emulator/auth/iframe`: relays auth events to the SDK through gapi's iframe channel.
    static func helperIframePage(storageKey: String) -> HTML {
        let body: HTML = """
            <script type="application/json" id="helper-config">\(ScriptJSON(["storageKey": .string(storageKey)]))</script>
            <script>\(SignInWidgetScript.helperIframe)</script>
            <script src="https://apis.google.com/js/api.js"></script>
            """
        return HTML.page(title: "Auth Emulator Helper Iframe", body: body)
    }

    // Self-contained: the page loads nothing from the network (the official one loads Material
    // from unpkg), so it looks the same offline; the `mdc-*` class names are kept for selectors.
    private static let style: HTML = """
        body{font:16px/1.4 Roboto,system-ui,sans-serif;margin:0;color:#1b1f24}
        #content{box-sizing:border-box;margin:16px auto;max-width:515px;min-width:300px}
        .content-wrapper{padding:0 24px}
        #title{display:flex;align-items:center;font-size:24px;font-weight:500;margin:32px 0 16px}
        .subtitle{color:rgba(0,0,0,.56);font-size:14px;margin:0}
        .vs{margin-bottom:16px}
        .callout{display:block;background:#e5eaf0;color:#476282;padding:12px 24px;font-size:14px;font-weight:500;margin:0 0 16px}
        .callout-warning{background:#fff3e0;color:#bf360c}
        .callout[hidden]{display:none}
        ul.mdc-list{list-style:none;padding:0;margin:8px 0}
        li.mdc-list-item{padding:4px 24px;list-style:none}
        li.js-reuse-account form{margin:0}
        button.account{display:flex;align-items:center;width:100%;text-align:left;background:none;border:0;padding:8px 0;cursor:pointer;font:inherit}
        li.js-reuse-account:hover,li.js-reuse-account:focus-within{background:#f1f3f4}
        .mdc-list-item__graphic{position:relative;display:flex;align-items:center;justify-content:center;flex-shrink:0;width:36px;height:36px;border-radius:50%;background:#c5c5c5;color:#fff;margin-right:16px;overflow:hidden}
        .mdc-list-item__graphic img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
        .mdc-list-item__text{display:flex;flex-direction:column}
        .mdc-list-item__secondary-text{color:rgba(0,0,0,.56);font-size:14px}
        .hides-email{display:inline-block;margin-top:2px;padding:0 6px;border-radius:8px;background:#e8eefc;color:#1d3f8f;font-size:12px}
        .mdc-button{display:inline-flex;align-items:center;gap:6px;font:500 14px Roboto,system-ui,sans-serif;padding:8px 16px;border-radius:4px;border:0;background:none;color:#1a73e8;cursor:pointer;text-decoration:none}
        .mdc-button--outlined{border:1px solid rgba(0,0,0,.2)}
        .mdc-button--raised{background:#1a73e8;color:#fff}
        .mdc-button:disabled{background:rgba(0,0,0,.12);color:rgba(0,0,0,.38);cursor:default}
        #add-account-button .mdc-button{width:100%;justify-content:flex-start;box-sizing:border-box;padding:14px 16px}
        #add-user{display:none}
        .form-label{display:block;color:rgba(0,0,0,.54);font-size:12px;margin:0 0 4px 1px}
        .mdc-text-field{display:block}
        .mdc-text-field__input{display:block;width:100%;box-sizing:border-box;padding:9px 12px;font:inherit;border:1px solid rgba(0,0,0,.38);border-radius:4px}
        .error-info{display:block;color:#c62828;font-size:12px;padding-top:4px}.error-info:empty{margin:0;padding:0}
        .check{display:block;margin:0 0 12px;font-size:14px}.check input{margin-right:6px}
        #main-action{display:flex;justify-content:space-between;margin-top:15px}
        """
}
