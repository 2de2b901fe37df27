#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTML
import JOSE
import JSON

/// The fake identity providers and Apple's relay, in sections a sub-menu jumps to: a mint form
/// whose answer shows the token decoded (header and claims, the nonce as the token carries it) and
/// its `postBody` to copy; each provider's keys (`kid`s) and accounts; the relay addresses with
/// their forwarding switches; the project's registered senders; Apple's revocations.
enum ConsoleProviderPages {
    private static let accountsShown = 20

    // MARK: GET /emulator/ui/providers

    static func show(_ request: OperationRequest) throws -> OperationResult {
        try page(ConsoleContext(request), minted: nil, form: nil)
    }

    /// The page, with what was just minted; `form` is a refused post of one of its forms, drawn
    /// as it was typed.
    private static func page(_ context: ConsoleContext, minted: MintedCredential?, form refused: ConsoleForm?) throws -> OperationResult {
        let mintForm = (refused ?? ConsoleForm("mint")).form("mint")
        let environment = context.environment
        let keyring = environment.keyring
        let projectId = context.scope.projectId
        let (rows, accounts, revocations, relay, senders) = try environment.store.read { store in
            let rows = try store.fakeProviders.keys()
            let providerIds = Array(Set(ConsoleUserPages.federatedProviders + rows.map(\.providerId))).sorted()
            let accounts = try providerIds.map { ($0, try store.fakeProviders.accounts(of: $0, limit: accountsShown)) }
            return (
                rows, accounts, try store.fakeProviders.revocations(), try store.fakeProviders.relayAddresses(),
                try store.outbox.registeredSenders(projectId: projectId)
            )
        }
        let retired = Set(rows.filter(\.isRetired).map(\.kid))

        let providerCards = try accounts.map { providerId, accounts -> HTML in
            let keys = try keyring.publishedKeys(of: providerId).map { key -> HTML in
                let status: HTML = retired.contains(key.kid)
                    ? ConsoleLayout.badge("retired (still in the JWKS)") : ConsoleLayout.badge("active", kind: "active")
                return "<tr><td class=\"mono\">\(key.kid)</td><td>\(key.key.algorithm.rawValue)</td><td>\(status)</td><td>\(ConsoleLayout.shortTime(key.createdAt))</td></tr>"
            }
            let accountRows = accounts.map { account -> HTML in
                let hidden: HTML = account.hidesEmail ? " \(ConsoleLayout.badge("hides email"))" : ""
                return "<tr><td class=\"mono\">\(account.sub)</td><td>\(account.email)\(hidden)</td><td>\(account.name)</td></tr>"
            }
            let base = "\(ProviderProfile.routePrefix)/\(providerId)"
            return """
                <section class="card" id="provider-\(providerId)"><h3>\(ConsoleLayout.provider(providerId))</h3>
                <div class="actions"><a href="\(base)/jwks">JWKS</a> <a href="\(base)/.well-known/openid-configuration">discovery</a>
                \(context.form("/providers", class: "inline", """
                <input type="hidden" name="action" value="rotate"><input type="hidden" name="provider" value="\(providerId)">\
                <button type="submit">Rotate RS256 key</button>
                """))</div>
                \(ConsoleLayout.table(["kid", "alg", "Status", "Created"], keys, empty: "No key yet: one is made on the first mint or JWKS read."))
                <h4>Accounts</h4>
                \(ConsoleLayout.table(["sub", "Email", "Name"], accountRows, empty: "No accounts yet."))
                </section>
                """
        }
        let revocationRows = revocations.map { revocation -> HTML in
            "<tr><td class=\"mono\">\(revocation.sub)</td><td class=\"mono\">\(revocation.code)</td><td>\(revocation.tokenType.name)</td><td>\(revocation.projectId)</td><td>\(ConsoleLayout.shortTime(revocation.revokedAt))</td></tr>"
        }
        let relayRows = relay.map { entry -> HTML in
            let toggle = context.form("/providers", class: "inline", """
                <input type="hidden" name="action" value="forwarding"><input type="hidden" name="address" value="\(entry.address)">\
                <input type="hidden" name="forwarding" value="\(entry.forwarding ? "off" : "on")">\
                <button type="submit">\(entry.forwarding ? "Stop forwarding" : "Start forwarding")</button>
                """)
            let state = entry.forwarding ? ConsoleLayout.badge("forwarding", kind: "active") : ConsoleLayout.badge("off", kind: "bounced")
            return "<tr><td class=\"mono\">\(entry.address)</td><td>\(entry.forwardTo)</td><td class=\"mono\">\(entry.audience)</td><td>\(state)</td><td>\(toggle)</td></tr>"
        }
        let sections: [(id: String, label: String)] = [("mint", "Mint a token"), ("providers", "Keys and accounts"),
            ("relay", "Apple relay"), ("senders", "Registered senders"), ("revocations", "Apple revocations")]
        let subnav = HTML.joined(sections.map { "<a href=\"#\($0.id)\">\($0.label)</a>" })
        let content: HTML = """
            <nav class="subnav" aria-label="Sections">\(subnav)</nav>
            \(minted.map(result) ?? "")
            <section id="mint"><h2>Mint a token</h2>
            \(context.form("/providers/mint", class: "card", """
            <input type="hidden" name="action" value="mint">
            \(mintForm.formNote(fields: ["provider", "otherProvider", "email", "name", "sub", "nonce", "audience"]))
            <div class="grid">
            \(mintForm.select("Provider", "provider", ConsoleUserPages.federatedProviders.map { ($0, $0) }))
            \(mintForm.input("Other provider id", "otherProvider", placeholder: "oidc.example (overrides the list)"))
            \(mintForm.input("Email", "email", type: "email", placeholder: "ada@example.com"))
            \(mintForm.input("Name", "name"))
            \(mintForm.input("sub (optional)", "sub"))
            \(mintForm.input("Raw nonce (optional)", "nonce"))
            \(mintForm.input("Audience (optional)", "audience"))
            </div>
            \(mintForm.checkbox("Email verified", "emailVerified", checked: true))
            \(mintForm.checkbox("Hide my email (Apple)", "hideEmail"))
            <div class="actions"><button type="submit" class="primary">Mint</button></div>
            """))</section>
            <section id="providers"><h2>Providers, keys and accounts</h2>
            <div class="cards">\(providerCards)</div></section>
            <section id="relay"><h2>Apple: private relay addresses</h2>
            \(ConsoleLayout.table(["Relay address", "Forwards to", "Audience", "Forwarding", ""], relayRows, empty: "No relay addresses yet: mint or sign in an Apple user with a hidden email."))</section>
            <section id="senders"><h2>Apple: registered senders of project \(projectId)</h2>
            <p class="muted">Mail to a relay address is relayed only from these senders; from any other it bounces.
            The <a href="\(context.link("/settings"))#senders">settings page</a> edits the same list.</p>
            \(sendersForm(context, senders: senders, form: (refused ?? ConsoleForm("senders")).form("senders")))</section>
            <section id="revocations"><h2>Apple: token revocations</h2>
            \(ConsoleLayout.table(["sub", "Token", "Kind", "Project", "Revoked"], revocationRows, empty: "No revocations yet."))</section>
            """
        return ConsoleLayout.page(context, .providers, title: "Fake identity providers and Apple's relay", content)
    }

    /// The registered senders, one a line; posted to the providers page's `senders` action, which
    /// sends the browser back to the settings page when `backToSettings`.
    static func sendersForm(_ context: ConsoleContext, senders: [String], form: ConsoleForm, backToSettings: Bool = false) -> HTML {
        context.form("/providers", backToSettings ? [("back", "settings")] : [], class: "card", """
            <input type="hidden" name="action" value="senders">
            \(form.formNote(fields: ["senders"]))
            \(form.textarea("One address or domain (@example.com) a line", "senders", value: senders.joined(separator: "\n")))
            <div class="actions"><button type="submit">Save senders</button></div>
            """)
    }

    /// The mint answer: what was minted, the token decoded, and each value in a text area to copy.
    private static func result(_ minted: MintedCredential) -> HTML {
        func copyable(_ label: String, _ id: String, _ value: String, rows: Int? = nil) -> HTML {
            let rowsAttribute: HTML = rows.map { " rows=\"\($0)\"" } ?? ""
            let tokenClass: HTML = rows == nil ? " token" : ""
            return """
                <label for="\(id)">\(label)</label>
                <div class="copyable"><textarea readonly\(rowsAttribute) class="mono\(tokenClass)" id="\(id)">\(value)</textarea>\(ConsoleLayout.copyButton(id))</div>
                """
        }
        let decoded = DecodedJWT(minted.idToken)
        let nonceClaim = decoded?.claims["nonce"]?.stringValue
        let nonce: HTML? = nonceClaim.map { claim -> HTML in
            let how: HTML = minted.rawNonce.map { raw -> HTML in
                claim == raw ? " <span class=\"muted\">(the raw nonce, as this provider carries it)</span>"
                    : " <span class=\"muted\">(SHA-256 of the raw nonce <code>\(raw)</code>; sign-in sends the raw one)</span>"
            } ?? ""
            return "<code class=\"token\" id=\"minted-nonce\">\(claim)</code>\(how)"
        }
        let code: HTML = minted.authorizationCode.map { copyable("authorizationCode", "minted-code", $0, rows: 1) } ?? ""
        return """
            <section class="card" id="minted"><h2>Minted a \(minted.providerId) token</h2>
            \(ConsoleLayout.details([
                ("sub", ConsoleLayout.token(minted.sub)), ("Email in the token", minted.email.map(ConsoleLayout.address)),
                ("Real email", minted.realEmail.map(ConsoleLayout.address)), ("nonce claim", nonce),
            ]))
            <div class="split">
            <div><h3>Header</h3><pre class="claims" id="minted-header">\(decoded?.header ?? "")</pre></div>
            <div><h3>Claims</h3><pre class="claims" id="minted-claims">\(decoded?.claimsText ?? "")</pre></div>
            </div>
            \(copyable("postBody (for signInWithIdp)", "minted-post-body", minted.postBody))
            \(copyable("idToken", "minted-id-token", minted.idToken))
            \(copyable("accessToken", "minted-access-token", minted.accessToken, rows: 1))
            \(code)
            </section>
            """
    }

    /// A JWT's header and claims, pretty-printed, without checking its signature (the console
    /// shows what it just minted).
    struct DecodedJWT {
        let header: String
        let claims: JSONObject
        let claimsText: String

        init?(_ token: String) {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
                let header = try? JSONValue(parsing: String(decoding: headerBytes, as: UTF8.self)),
                let claims = try? JSONValue(parsing: String(decoding: claimBytes, as: UTF8.self)), let object = claims.objectValue
            else { return nil }
            self.header = String(decoding: header.prettyEncoded(), as: UTF8.self)
            self.claims = object
            claimsText = String(decoding: claims.prettyEncoded(), as: UTF8.self)
        }
    }

    // MARK: POST /emulator/ui/providers/mint

    /// Answers the page with the token rather than redirecting: a token does not belong in a URL
    /// (or the browser's history).
    static func mint(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleSecurity.checkSameOrigin(request)
        try ConsoleSecurity.checkToken(request)
        let context = ConsoleContext(request)
        let form = request.body
        do {
            var object = JSONObject()
            for name in ["email", "name", "sub", "nonce", "audience"] {
                if let value = try form.nonEmptyString(name) { object[name] = .string(value) }
            }
            object["emailVerified"] = .bool(try form.string("emailVerified") != nil)
            object["hideEmail"] = .bool(try form.string("hideEmail") != nil)
            let body = RequestBody(object)
            let providerId = (try form.nonEmptyString("otherProvider") ?? form.nonEmptyString("provider") ?? "apple.com").lowercased()
            let minted = try TokenMint(environment: context.environment, profile: ProviderProfile(providerId), origin: request.origin)
                .mint(MintRequest(body))
            return try page(context, minted: minted, form: nil)
        } catch let error as AuthError {
            let form = ConsoleForm("mint", posted: form, problem: ConsoleProblem(error))
            guard case .html(let markup, _) = try page(context, minted: nil, form: form) else { throw error }
            return .html(markup, status: 400)
        }
    }

    // MARK: POST /emulator/ui/providers

    static func action(_ request: OperationRequest) throws -> OperationResult {
        // The settings page posts its senders form here too, and wants to come back to itself.
        let toSettings = request.queryValue("back") == "settings"
        let again = { (context: ConsoleContext, form: ConsoleForm) throws -> OperationResult? in
            guard form.action == "senders" else { return nil }
            return toSettings ? try ConsoleSettingsPage.page(context, form: form) : try page(context, minted: nil, form: form)
        }
        return try ConsoleContext.post(request, back: .init(path: toSettings ? "/settings" : "/providers"), again: again) { context, form in
            let environment = context.environment
            switch try form.string("action") ?? "" {
            case "rotate":
                guard let providerId = try form.nonEmptyString("provider")?.lowercased() else { throw AuthError.invalid("No provider.") }
                let kid = try environment.keyring.rotate(providerId, algorithm: .rs256, now: environment.clock.now())
                return ("Rotated \(providerId): new kid \(kid); the old key stays in the JWKS.", nil)
            case "forwarding":
                let address = EmailAddress.canonical(try form.string("address") ?? "")
                let forwarding = try form.string("forwarding") == "on"
                let found = try environment.store.write { store -> Bool in
                    guard try store.fakeProviders.relayAddress(address) != nil else { return false }
                    try store.fakeProviders.setForwarding(forwarding, for: address)
                    return true
                }
                guard found else { throw AuthError.invalid("RELAY_ADDRESS_NOT_FOUND : \(address)") }
                return ("\(forwarding ? "Forwarding" : "Stopped forwarding") mail to \(address).", nil)
            case "senders":
                let senders = (try form.string("senders") ?? "").split(whereSeparator: \.isNewline)
                    .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                // The privateRelay route's own rules: addresses and whole domains (@example.com).
                _ = try ConsoleProblem.about("senders") {
                    try OutboxOperations.updatePrivateRelay(context.operationRequest(["registeredSenders": .array(senders.map { .string($0) })]))
                }
                return ("Saved \(senders.count) registered sender\(senders.count == 1 ? "" : "s").", nil)
            default:
                throw AuthError.invalid("Unknown action.")
            }
        }
    }
}
