import Foundation
import HTML
import JOSE
import JSON

/// The fake identity providers and Apple's relay: each provider's keys (`kid`s) and accounts, a
/// mint form whose answer shows the token and its `postBody` to copy, Apple's revocations, the
/// relay addresses with their forwarding switches, and the project's registered senders.
enum ConsoleProviderPages {
    private static let accountsShown = 20

    // MARK: GET /emulator/ui/providers

    static func show(_ request: OperationRequest) throws -> OperationResult {
        try page(ConsoleContext(request), minted: nil)
    }

    private static func page(_ context: ConsoleContext, minted: MintedCredential?) throws -> OperationResult {
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
                    ? "<span class=\"badge\">retired (still in the JWKS)</span>" : "<span class=\"badge active\">active</span>"
                return "<tr><td class=\"mono\">\(key.kid)</td><td>\(key.key.algorithm.rawValue)</td><td>\(status)</td><td>\(key.createdAt.rfc3339)</td></tr>"
            }
            let accountRows = accounts.map { account -> HTML in
                let hidden: HTML = account.hidesEmail ? " <span class=\"badge\">hides email</span>" : ""
                return "<tr><td class=\"mono\">\(account.sub)</td><td>\(account.email)\(hidden)</td><td>\(account.name)</td></tr>"
            }
            let base = "\(ProviderProfile.routePrefix)/\(providerId)"
            return """
                <section class="card" id="provider-\(providerId)"><h3>\(providerId)</h3>
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
            "<tr><td class=\"mono\">\(revocation.sub)</td><td class=\"mono\">\(revocation.code)</td><td>\(revocation.projectId)</td><td>\(revocation.revokedAt.rfc3339)</td></tr>"
        }
        let relayRows = relay.map { entry -> HTML in
            let toggle = context.form("/providers", class: "inline", """
                <input type="hidden" name="action" value="forwarding"><input type="hidden" name="address" value="\(entry.address)">\
                <input type="hidden" name="forwarding" value="\(entry.forwarding ? "off" : "on")">\
                <button type="submit">\(entry.forwarding ? "Stop forwarding" : "Start forwarding")</button>
                """)
            let state: HTML = entry.forwarding ? "<span class=\"badge active\">forwarding</span>" : "<span class=\"badge bounced\">off</span>"
            return "<tr><td class=\"mono\">\(entry.address)</td><td>\(entry.forwardTo)</td><td class=\"mono\">\(entry.audience)</td><td>\(state)</td><td>\(toggle)</td></tr>"
        }
        let providerOptions = HTML.joined(ConsoleUserPages.federatedProviders.map { "<option value=\"\($0)\">\($0)</option>" })
        let content: HTML = """
            \(minted.map(result) ?? "")
            <h2>Mint a token</h2>
            \(context.form("/providers/mint", class: "card", """
            <div class="grid">
            <label>Provider <select name="provider">\(providerOptions)</select></label>
            <label>Other provider id <input type="text" name="otherProvider" placeholder="oidc.example (overrides the list)"></label>
            <label>Email <input type="email" name="email" placeholder="ada@example.com"></label>
            <label>Name <input type="text" name="name"></label>
            <label>sub (optional) <input type="text" name="sub"></label>
            <label>Raw nonce (optional) <input type="text" name="nonce"></label>
            <label>Audience (optional) <input type="text" name="audience"></label>
            </div>
            <label class="check"><input type="checkbox" name="emailVerified" checked> Email verified</label>
            <label class="check"><input type="checkbox" name="hideEmail"> Hide my email (Apple)</label>
            <div class="actions"><button type="submit" class="primary">Mint</button></div>
            """))
            <h2>Providers, keys and accounts</h2>
            \(providerCards)
            <h2>Apple: private relay addresses</h2>
            \(ConsoleLayout.table(["Relay address", "Forwards to", "Audience", "Forwarding", ""], relayRows, empty: "No relay addresses yet: mint or sign in an Apple user with a hidden email."))
            <h2>Apple: registered senders of project \(projectId)</h2>
            <p class="muted">Mail to a relay address is relayed only from these senders; from any other it bounces.</p>
            \(context.form("/providers", class: "card", """
            <input type="hidden" name="action" value="senders">
            <label>One address a line <textarea name="senders" rows="3" class="mono">\(senders.joined(separator: "\n"))</textarea></label>
            <div class="actions"><button type="submit">Save senders</button></div>
            """))
            <h2>Apple: token revocations</h2>
            \(ConsoleLayout.table(["sub", "Authorization code", "Project", "Revoked"], revocationRows, empty: "No revocations yet."))
            """
        return ConsoleLayout.page(context, .providers, title: "Fake identity providers and Apple's relay", content)
    }

    /// The mint answer, in text areas to copy.
    private static func result(_ minted: MintedCredential) -> HTML {
        let code: HTML = minted.authorizationCode.map {
            "<label>authorizationCode <textarea readonly rows=\"1\" class=\"mono\" id=\"minted-code\">\($0)</textarea></label>"
        } ?? ""
        return """
            <section class="card" id="minted"><h2>Minted a \(minted.providerId) token</h2>
            \(ConsoleLayout.details([
                ("sub", "<span class=\"mono\">\(minted.sub)</span>"), ("Email in the token", ConsoleLayout.text(minted.email)),
                ("Real email", ConsoleLayout.text(minted.realEmail)),
            ]))
            <label>postBody (for signInWithIdp) <textarea readonly class="mono token" id="minted-post-body">\(minted.postBody)</textarea></label>
            <label>idToken <textarea readonly class="mono token" id="minted-id-token">\(minted.idToken)</textarea></label>
            <label>accessToken <textarea readonly rows="1" class="mono">\(minted.accessToken)</textarea></label>
            \(code)
            </section>
            """
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
            return try page(context, minted: minted)
        } catch let error as AuthError {
            return .redirect(location: context.link("/providers", [("error", error.message)]))
        }
    }

    // MARK: POST /emulator/ui/providers

    static func action(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/providers")) { context, form in
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
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                if let bad = senders.first(where: { !EmailAddress.isValid($0) }) {
                    throw AuthError.invalid("INVALID_EMAIL : \(bad) is not an email address.")
                }
                try environment.store.write { try $0.outbox.setRegisteredSenders(senders, projectId: context.scope.projectId) }
                return ("Saved \(senders.count) registered sender\(senders.count == 1 ? "" : "s").", nil)
            default:
                throw AuthError.invalid("Unknown action.")
            }
        }
    }
}
