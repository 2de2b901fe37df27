#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTML
import JSON

/// Users: the searchable, keyset-paged list, one user's page (providers, claims, second factors,
/// `validSince`) with its edit form and actions, and the page that creates a user with any provider.
enum ConsoleUserPages {
    static let pageSize = 50
    /// The providers the create form offers; any other provider id may be typed in.
    static let federatedProviders = ["apple.com", "facebook.com", "google.com", "yahoo.com"]

    // MARK: GET /emulator/ui/users

    static func list(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let search = context.query("q")?.trimmingWhitespace() ?? ""
        let after = context.query("after").flatMap(UserRepository.NewestFirstCursor.init)
        let (users, total, relays) = try context.environment.read(in: context.scope) { transaction in
            let users = try transaction.users.search(search, in: context.scope, after: after, limit: pageSize + 1)
            // Each relay address on the page, with where it forwards and whether it does.
            var relays: [String: FakeProviderRepository.RelayAddress] = [:]
            for email in users.compactMap(\.email) where PrivateRelay.isRelayAddress(email) {
                relays[email] = try transaction.store.fakeProviders.relayAddress(email)
            }
            return (users, try transaction.users.count(in: context.scope), relays)
        }
        let shown = users.prefix(pageSize)
        let rows = shown.map { user -> HTML in
            let providers = user.providerUserInfo.map(\.providerId)
            let state: HTML = user.disabled ? " \(ConsoleLayout.badge("disabled", kind: "disabled"))" : ""
            let relay: HTML = user.email.flatMap { relays[$0] }.map { relay -> HTML in
                let forwarding = relay.forwarding
                    ? ConsoleLayout.badge("forwarding", kind: "active") : ConsoleLayout.badge("forwarding off", kind: "bounced")
                return "<div class=\"relay\">Apple relay → \(ConsoleLayout.address(relay.forwardTo)) \(forwarding)</div>"
            } ?? ""
            let email: HTML = user.email.map { email -> HTML in
                "<span class=\"cut email-address\" title=\"\(email)\">\(email)\(user.emailVerified == true ? " ✓" : "")</span>"
            } ?? ""
            let providerMarks = providers.isEmpty ? ConsoleLayout.provider("anonymous") : HTML.joined(providers.map(ConsoleLayout.provider))
            let name: HTML = user.displayName.map { "<span class=\"cut\" title=\"\($0)\">\($0)</span>" } ?? ""
            // Every cell on one line, long ones cut with an ellipsis (the title has them whole), so
            // that all seven columns fit a laptop's width; times to the minute (exact in the title).
            return """
                <tr><td class="mono uid"><a class="cut" href="\(context.link("/user", [("uid", user.localId)]))" title="\(user.localId)">\(user.localId)</a>\(state)</td>\
                <td data-label="Email">\(email)\(relay)</td><td class="name" data-label="Name">\(name)</td>\
                <td data-label="Phone">\(user.phoneNumber)</td><td class="providers" data-label="Providers">\(providerMarks)</td>\
                <td class="when" data-label="Created">\(ConsoleLayout.shortTime(user.createdAt, seconds: false))</td>\
                <td class="when" data-label="Last sign-in">\(user.lastLoginAt.map { ConsoleLayout.shortTime($0, seconds: false) } ?? "<span class=\"muted\">never</span>")</td></tr>
                """
        }
        var pager: [HTML] = []
        if after != nil { pager.append("<a href=\"\(context.link("/users", search.isEmpty ? [] : [("q", search)]))\">« Newest</a>") }
        if users.count > pageSize, let last = shown.last {
            var query = [("after", UserRepository.NewestFirstCursor(after: last).text)]
            if !search.isEmpty { query.insert(("q", search), at: 0) }
            pager.append("<a href=\"\(context.link("/users", query))\" rel=\"next\">Older »</a>")
        }
        let summary: HTML = search.isEmpty
            ? "<p class=\"muted\" id=\"users-summary\">\(total) user\(total == 1 ? "" : "s") in this \(context.scope.tenantId == nil ? "project" : "tenant"), newest first, \(pageSize) a page.</p>"
            : "<p class=\"muted\" id=\"users-summary\">Users whose uid, email, phone, name, provider id or provider uid contains “\(search)” (of \(total)), newest first.</p>"
        let content: HTML = """
            <form method="get" action="\(ConsoleContext.base)/users" class="toolbar">
            \(scopeFields(context))
            <label>Search <input type="search" name="q" value="\(search)" placeholder="email, uid, phone, apple.com or provider uid"></label>
            <button type="submit">Search</button>
            <a class="button primary" href="\(context.link("/users/new"))">Add user</a>
            </form>
            \(summary)
            <div class="users">\(ConsoleLayout.table(
                ["uid", "Email", "Name", "Phone", "Providers", "Created", "Last sign-in"], rows,
                empty: search.isEmpty ? "No users yet." : "No user matches."))</div>
            <div class="pager">\(pager)</div>
            <h2>Danger zone</h2>
            <p><a class="button danger" href="\(context.link("/users/delete-all"))">Delete every user of this \(context.scope.tenantId == nil ? "project" : "tenant")…</a></p>
            """
        return ConsoleLayout.page(context, .users, title: "Users", content)
    }

    /// Hidden fields that keep a GET form in this project and tenant.
    static func scopeFields(_ context: ConsoleContext) -> HTML {
        var fields: HTML = ""
        if !context.isDefaultProject { fields = "<input type=\"hidden\" name=\"project\" value=\"\(context.scope.projectId)\">" }
        if let tenant = context.scope.tenantId { fields = fields + "<input type=\"hidden\" name=\"tenant\" value=\"\(tenant)\">" }
        return fields
    }

    // MARK: GET /emulator/ui/users/delete-all

    /// The confirmation a delete of every user needs: it says how many go, and only its form
    /// carries the confirmation the post requires.
    static func confirmDeleteAll(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let total = try context.environment.read(in: context.scope) { try $0.users.count(in: context.scope) }
        let place = context.scope.tenantId.map { "tenant \($0) of project \(context.scope.projectId)" } ?? "project \(context.scope.projectId)"
        let content: HTML = """
            <div class="card" id="confirm-delete-all">
            <p>This deletes <strong>\(total) user\(total == 1 ? "" : "s")</strong> of \(place), with their sessions and second factors.
            It cannot be undone.</p>
            \(context.form("/users", class: "inline", """
            <input type="hidden" name="action" value="delete-all"><input type="hidden" name="confirm" value="yes">\
            <button type="submit" class="danger">Yes, delete \(total) user\(total == 1 ? "" : "s")</button>
            """))
            <a class="button" href="\(context.link("/users"))">Cancel</a>
            </div>
            """
        return ConsoleLayout.page(context, .users, title: "Delete every user?", content)
    }

    /// POST /emulator/ui/users: `delete-all`, from the confirmation page only.
    static func listAction(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/users")) { context, form in
            guard try form.string("action") == "delete-all" else { throw AuthError.invalid("Unknown action.") }
            guard try form.string("confirm") == "yes" else {
                throw AuthError.invalid("Deleting every user needs its confirmation page: nothing was deleted.")
            }
            try context.environment.write(in: context.scope) { try $0.users.deleteAll(in: context.scope) }
            return ("Deleted every user.", nil)
        }
    }

    // MARK: GET /emulator/ui/users/new

    static func newUserForm(_ request: OperationRequest) throws -> OperationResult {
        newUserPage(ConsoleContext(request), form: ConsoleForm(NewUserKind.action))
    }

    /// The form shows only the fields the chosen provider takes (a stylesheet rule on the chosen
    /// option, no script; a browser without `:has()` shows them all, and the post ignores the rest).
    static func newUserPage(_ context: ConsoleContext, form: ConsoleForm) -> OperationResult {
        let chosen = form.value("provider", else: "password")
        let options = HTML.joined((["password", "phone", "anonymous"] + federatedProviders + ["other"]).map { provider -> HTML in
            let label = switch provider {
            case "password": "Email and password"
            case "phone": "Phone number"
            case "anonymous": "Anonymous"
            case "other": "Another provider id…"
            default: provider
            }
            let federated: HTML = NewUserKind(provider) == .federated ? " data-federated" : ""
            let selected: HTML = provider == chosen ? " selected" : ""
            return "<option value=\"\(provider)\"\(federated)\(selected)>\(label)</option>"
        })
        func only(_ kinds: String, _ field: HTML) -> HTML { "<fieldset class=\"for \(kinds)\">\(field)</fieldset>" }
        let content: HTML = """
            <p class="muted">Provider users are made the way an app makes them: the fake provider mints a signed token
            and it signs in through <code>signInWithIdp</code>. Choose “apple.com” and “Hide my email” for a user behind
            Apple's private relay.</p>
            \(context.form("/users/new", class: "card new-user", """
            <input type="hidden" name="action" value="\(NewUserKind.action)">
            \(form.formNote(fields: NewUserKind.fields))
            <div class="grid">
            <label>Provider <select name="provider">\(options)</select></label>
            \(only("federated other-only", form.input("Provider id", "otherProvider", placeholder: "oidc.example")))
            \(only("password federated", form.input("Email", "email", type: "email", placeholder: "ada@example.com")))
            \(only("password", form.input("Password", "password", type: "password", attributes: " autocomplete=\"new-password\"")))
            \(form.input("Display name", "displayName"))
            \(only("password phone", form.input("Phone number", "phoneNumber", type: "tel", placeholder: "+16505551234")))
            \(only("password phone anonymous", form.input("uid (optional)", "uid")))
            \(only("federated", form.input("Provider uid (sub; optional)", "sub")))
            </div>
            \(only("password federated", form.checkbox("Email verified", "emailVerified", checked: true)))
            \(only("federated apple-only", form.checkbox(
                "Hide my email (a @privaterelay.appleid.com address that forwards to the email)", "hideEmail")))
            \(form.textarea("Custom claims (JSON object)", "claims", placeholder: "{\"admin\": true}"))
            <div class="actions"><button type="submit" class="primary">Create user</button></div>
            """))
            """
        return ConsoleLayout.page(context, .users, title: "Add a user", content)
    }

    /// What kind of user the new-user form makes, and which of its fields that kind takes.
    enum NewUserKind: Equatable {
        case password, phone, anonymous, federated

        static let action = "create"
        static let fields = ["provider", "otherProvider", "email", "password", "displayName", "phoneNumber", "uid", "sub", "claims"]

        init(_ provider: String) {
            switch provider {
            case "password": self = .password
            case "phone": self = .phone
            case "anonymous": self = .anonymous
            default: self = .federated
            }
        }

        func takes(_ field: String) -> Bool {
            switch field {
            case "email", "emailVerified": self == .password || self == .federated
            case "password": self == .password
            case "phoneNumber": self == .password || self == .phone
            case "uid": self != .federated
            case "sub", "hideEmail": self == .federated
            default: true
            }
        }
    }

    // MARK: POST /emulator/ui/users/new

    static func create(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/users/new"), again: newUserPage) { context, form in
            let chosen = try form.nonEmptyString("provider") ?? "password"
            let kind = NewUserKind(chosen)
            // A field the provider takes, trimmed; the fields it does not take are ignored.
            func field(_ name: String) throws -> String? {
                guard kind.takes(name), let text = try form.string(name)?.trimmingWhitespace(newlines: true), !text.isEmpty else {
                    return nil
                }
                return text
            }
            let provider: String
            if chosen == "other" {
                guard let other = try form.nonEmptyString("otherProvider")?.trimmingWhitespace().lowercased(), !other.isEmpty else {
                    throw ConsoleProblem(field: "otherProvider", "Enter the provider id, such as oidc.example.")
                }
                provider = other
            } else {
                provider = chosen
            }
            let email = try field("email")
            let displayName = try field("displayName")
            let phoneNumber = try field("phoneNumber")
            let emailVerified = try field("emailVerified") != nil
            let claims = try field("claims")
            if let claims { try CustomClaims.validate(serialized: claims) }
            let localId: String
            switch kind {
            case .password, .phone, .anonymous:
                var body: JSONObject = ["emailVerified": .bool(emailVerified && email != nil)]
                if kind == .password {
                    guard let email else { throw AuthError.invalid("MISSING_EMAIL") }
                    guard let password = try field("password") else { throw AuthError.invalid("MISSING_PASSWORD") }
                    body["email"] = .string(email)
                    body["password"] = .string(password)
                }
                if kind == .phone, phoneNumber == nil { throw AuthError.invalid("MISSING_PHONE_NUMBER") }
                body.setIfPresent("phoneNumber", phoneNumber.map { .string($0) })
                body.setIfPresent("displayName", displayName.map { .string($0) })
                body.setIfPresent("localId", try field("uid").map { .string($0) })
                let created = try SignUp.run(context.operationRequest(body))
                localId = created["localId"]?.stringValue ?? ""
            case .federated:
                localId = try signInWithProvider(
                    provider, context: context, email: email, name: displayName, sub: try field("sub"),
                    emailVerified: emailVerified, hideEmail: provider == "apple.com" && (try field("hideEmail")) != nil)
            }
            if let claims {
                _ = try UpdateAccount.run(context.operationRequest(["localId": .string(localId), "customAttributes": .string(claims)]))
            }
            return ("Created user \(localId) (\(provider)).", .init(path: "/user", query: [("uid", localId)]))
        }
    }

    /// Mints a token at the fake provider and signs in with it through `signInWithIdp`, exactly as
    /// an app would (with a nonce, and Apple's once-only `user` name); answers the user's uid.
    static func signInWithProvider(
        _ providerId: String, context: ConsoleContext, email: String?, name: String?, sub: String?, emailVerified: Bool,
        hideEmail: Bool
    ) throws -> String {
        let environment = context.environment
        let profile = ProviderProfile(providerId)
        if let email, !EmailAddress.isValid(email) { throw AuthError.invalid("INVALID_EMAIL") }
        var mint = MintRequest()
        mint.sub = sub
        mint.email = email
        mint.emailVerified = emailVerified
        mint.hideEmail = hideEmail
        // Apple never puts the name in its token; the app sends it once beside it.
        mint.name = profile.family == .apple ? nil : name
        mint.nonce = environment.identifiers.alphanumeric(24)
        // The token must pass the project's own audience check, or sign-in would refuse it.
        mint.audience = try environment.providerAudiences.audiences(of: providerId, in: context.scope, environment: environment).first
        let minted = try TokenMint(environment: environment, profile: profile, origin: context.request.origin).mint(mint)
        var postBody = minted.postBody
        if profile.family == .apple, let name {
            let parts = NameParts(name)
            var nameObject: JSONObject = [:]
            nameObject.setIfPresent("firstName", parts.given.map { .string($0) })
            nameObject.setIfPresent("lastName", parts.family.map { .string($0) })
            let user: JSONObject = ["name": .object(nameObject)]
            postBody += "&user=" + URIComponent.encode(user.compactString)
        }
        let answer = try SignInWithIdp.run(context.operationRequest(
            ["requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true], privileged: false))
        if answer["needConfirmation"]?.boolValue == true {
            throw AuthError.invalid(
                "NEED_CONFIRMATION : \(answer["email"]?.stringValue ?? "The email") already belongs to another user; an unverified provider email cannot sign in to it (check “Email verified”).")
        }
        guard let localId = answer["localId"]?.stringValue else { throw AuthError.internal("INTERNAL_ERROR") }
        return localId
    }

    // MARK: GET /emulator/ui/user?uid=…

    static func detail(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        return try detailPage(context, uid: context.query("uid") ?? "", form: nil)
    }

    /// The forms of a user's page that are typed in, and drawn again when a post is refused.
    private static let typedForms: Set<String> = ["save", "send-email"]

    /// A user's page; `form` is the refused post of one of its forms, drawn as it was typed.
    static func detailPage(_ context: ConsoleContext, uid: String, form refused: ConsoleForm?) throws -> OperationResult {
        let found = try context.environment.read(in: context.scope) { transaction in
            let user = try transaction.users.user(localId: uid, in: context.scope)
            let relay = try user?.email.flatMap { PrivateRelay.isRelayAddress($0) ? try transaction.store.fakeProviders.relayAddress($0) : nil }
            return (user, relay)
        }
        guard let user = found.0 else {
            return ConsoleLayout.page(
                context, .users, title: "No such user",
                "<p>There is no user <code>\(uid)</code> in this project and tenant.</p><p><a href=\"\(context.link("/users"))\">All users</a></p>",
                status: 404)
        }
        let here = [("uid", user.localId)]
        let providers = user.providerUserInfo.map { info -> HTML in
            "<tr><td>\(ConsoleLayout.provider(info.providerId))</td><td>\(ConsoleLayout.token(info.rawId))</td><td>\(info.email)</td><td>\(info.displayName)</td><td>\(info.phoneNumber)</td></tr>"
        }
        let factors = user.mfaEnrollments.map { factor -> HTML in
            let kind: HTML = switch factor.factor {
            case .phone(let number): "SMS \(number)"
            case .totp: "TOTP"
            }
            return "<tr><td class=\"mono\">\(factor.mfaEnrollmentId)</td><td>\(kind)</td><td>\(factor.displayName)</td><td>\(factor.enrolledAt.rfc3339)</td></tr>"
        }
        let claims = user.customAttributes.flatMap { text -> String? in
            guard let value = try? JSONValue(parsing: text), case .object(let object) = value, !object.members.isEmpty else { return nil }
            return String(decoding: value.prettyEncoded(), as: UTF8.self)
        }
        let validSince = user.validSinceSeconds.map { Instant(millisecondsSinceEpoch: $0 * 1000) }
        let state: HTML = user.disabled ? "<span class=\"badge disabled\">disabled</span>" : "<span class=\"badge active\">enabled</span>"
        let facts = ConsoleLayout.details([
            ("uid", ConsoleLayout.token(user.localId)), ("Status", state),
            ("Email", user.email.map { email -> HTML in
                guard let relay = found.1 else { return ConsoleLayout.address(email) }
                return "\(ConsoleLayout.address(email)) <span class=\"muted\">Apple relay → \(ConsoleLayout.address(relay.forwardTo)), \(relay.forwarding ? "forwarding" : "forwarding off")</span>"
            }),
            ("Email verified", user.emailVerified.map { $0 ? "yes" : "no" }),
            ("Display name", ConsoleLayout.text(user.displayName)), ("Phone", ConsoleLayout.text(user.phoneNumber)),
            ("Photo URL", ConsoleLayout.text(user.photoUrl)), ("Password", user.hasPassword ? "set" : nil),
            ("Created", ConsoleLayout.instant(user.createdAt)), ("Last sign-in", ConsoleLayout.instant(user.lastLoginAt)),
            ("Last refresh", ConsoleLayout.instant(user.lastRefreshAt)),
            ("Tokens valid since", validSince.map { "\(ConsoleLayout.instant($0) ?? "") <span class=\"muted\">(validSince \(String($0.secondsSinceEpoch)))</span>" }),
            ("Passkeys", user.passkeys.isEmpty ? nil : "\(user.passkeys.count)"),
        ])
        // The outbox of what the emulator sent this user: mail to its email, texts to its phone.
        let mail = [user.email, user.phoneNumber].compactMap { $0 }.map { address -> HTML in
            "<a class=\"button\" href=\"\(context.link("/outbox", [("to", address)]))\" id=\"user-mail\">\(address.contains("@") ? "Mail" : "Texts") to \(address) »</a>"
        }
        let send = (refused ?? ConsoleForm("send-email")).form("send-email")
        let emailActions: HTML = user.email == nil ? "" : context.form("/user", here, class: "card", """
            <input type="hidden" name="action" value="send-email">
            \(send.formNote(fields: ["requestType", "continueUrl"]))
            <div class="grid">
            \(send.select("Email to send", "requestType", [
                ("EMAIL_SIGNIN", "Sign-in link"), ("PASSWORD_RESET", "Password reset"), ("VERIFY_EMAIL", "Email verification"),
            ]))
            \(send.input("Continue URL", "continueUrl", type: "url", value: "https://\(context.scope.projectId).firebaseapp.com/"))
            </div>
            <div class="actions"><button type="submit" name="send" value="1">Send to \(user.email ?? "")</button></div>
            """)
        let edit = (refused ?? ConsoleForm("save")).form("save")
        let content: HTML = """
            \(facts)
            <div class="actions">
            \(user.disabled
                ? context.button("/user", here, action: "enable", label: "Enable")
                : context.button("/user", here, action: "disable", label: "Disable"))
            \(user.email != nil && user.emailVerified != true ? context.button("/user", here, action: "verify-email", label: "Mark email verified") : "")
            \(context.button("/user", here, action: "revoke", label: "Revoke sessions (validSince = now)"))
            \(context.button("/user", here, action: "delete", label: "Delete user", danger: true))
            \(HTML.joined(mail))
            </div>
            <h2>Providers</h2>
            \(ConsoleLayout.table(["Provider", "Provider uid", "Email", "Name", "Phone"], providers, empty: "No providers: an anonymous user."))
            <h2>Custom claims</h2>
            \(claims.map { (text: String) -> HTML in "<pre>\(text)</pre>" } ?? "<p class=\"empty\">None.</p>")
            <h2>Second factors</h2>
            \(ConsoleLayout.table(["Enrollment id", "Factor", "Name", "Enrolled"], factors, empty: "None enrolled."))
            <h2>Send an email</h2>
            \(user.email == nil ? "<p class=\"empty\">This user has no email.</p>" : emailActions)
            <h2>Edit</h2>
            \(context.form("/user", here, class: "card", """
            <input type="hidden" name="action" value="save">
            \(edit.formNote(fields: ["displayName", "email", "phoneNumber", "photoUrl", "password", "claims"]))
            <div class="grid">
            \(edit.input("Display name", "displayName", value: user.displayName))
            \(edit.input("Email", "email", type: "email", value: user.email))
            \(edit.input("Phone number", "phoneNumber", type: "tel", value: user.phoneNumber))
            \(edit.input("Photo URL", "photoUrl", type: "url", value: user.photoUrl))
            \(edit.input("New password", "password", type: "password", placeholder: "(unchanged)", attributes: " autocomplete=\"new-password\""))
            </div>
            \(edit.textarea("Custom claims (JSON object)", "claims", value: claims, rows: 4))
            <div class="actions"><button type="submit" class="primary">Save</button></div>
            """))
            <p><a href="\(context.link("/users"))">« All users</a></p>
            """
        let title = user.displayName ?? user.email ?? user.localId
        return ConsoleLayout.page(
            context, .users, title: title, heading: user.displayName == nil ? user.email.map(ConsoleLayout.address) : nil, content)
    }

    // MARK: POST /emulator/ui/user?uid=…

    static func userAction(_ request: OperationRequest) throws -> OperationResult {
        let uid = request.queryValue("uid") ?? ""
        let here = ConsoleContext.Destination(path: "/user", query: [("uid", uid)])
        let again = { (context: ConsoleContext, form: ConsoleForm) throws -> OperationResult? in
            typedForms.contains(form.action) ? try detailPage(context, uid: uid, form: form) : nil
        }
        return try ConsoleContext.post(request, back: here, again: again) { context, form in
            func admin(_ body: JSONObject) throws {
                var body = body
                body["localId"] = .string(uid)
                _ = try UpdateAccount.run(context.operationRequest(body))
            }
            switch try form.string("action") ?? "" {
            case "disable":
                try admin(["disableUser": true])
                return ("Disabled the user: sign-in and refresh now answer USER_DISABLED.", nil)
            case "enable":
                try admin(["disableUser": false])
                return ("Enabled the user.", nil)
            case "verify-email":
                try admin(["emailVerified": true])
                return ("Marked the email verified.", nil)
            case "revoke":
                try admin(["validSince": .int(context.environment.clock.now().secondsSinceEpoch)])
                return ("Revoked the user's sessions: older refresh tokens and ID tokens no longer work.", nil)
            case "delete":
                _ = try DeleteAccount.run(context.operationRequest(["localId": .string(uid)]))
                return ("Deleted user \(uid).", .init(path: "/users"))
            case "send-email":
                return (try sendEmail(uid: uid, form: form, context: context), nil)
            case "save":
                return (try save(uid: uid, form: form, context: context), nil)
            default:
                throw AuthError.invalid("Unknown action.")
            }
        }
    }

    /// The edit form: the fields that changed go to `accounts:update` as the Admin SDK sends them;
    /// a cleared name, photo or phone is deleted.
    private static func save(uid: String, form: RequestBody, context: ConsoleContext) throws -> String {
        guard let user = try context.environment.read(in: context.scope, { try $0.users.user(localId: uid, in: context.scope) }) else {
            throw AuthError.invalid("USER_NOT_FOUND")
        }
        func field(_ name: String) throws -> String {
            try form.string(name)?.trimmingWhitespace(newlines: true) ?? ""
        }
        var body: JSONObject = ["localId": .string(uid)]
        var deleteAttributes: [JSONValue] = []
        let displayName = try field("displayName")
        if displayName.isEmpty { if user.displayName != nil { deleteAttributes.append("DISPLAY_NAME") } }
        else if displayName != user.displayName { body["displayName"] = .string(displayName) }
        let photoUrl = try field("photoUrl")
        if photoUrl.isEmpty { if user.photoUrl != nil { deleteAttributes.append("PHOTO_URL") } }
        else if photoUrl != user.photoUrl { body["photoUrl"] = .string(photoUrl) }
        let email = try field("email")
        if !email.isEmpty, EmailAddress.canonical(email) != user.email { body["email"] = .string(email) }
        let phoneNumber = try field("phoneNumber")
        if phoneNumber.isEmpty { if user.phoneNumber != nil { body["deleteProvider"] = ["phone"] } }
        else if phoneNumber != user.phoneNumber { body["phoneNumber"] = .string(phoneNumber) }
        let password = try form.string("password") ?? ""
        if !password.isEmpty { body["password"] = .string(password) }
        let claims = try field("claims")
        let currentClaims = user.customAttributes.flatMap { try? JSONValue(parsing: $0) }
        let newClaims = claims.isEmpty ? JSONValue.object([:]) : try parseClaims(claims)
        if newClaims != (currentClaims ?? .object([:])) {
            body["customAttributes"] = .string(claims.isEmpty ? "{}" : claims)
        }
        if !deleteAttributes.isEmpty { body["deleteAttribute"] = .array(deleteAttributes) }
        guard body.members.count > 1 else { return "Nothing changed." }
        _ = try UpdateAccount.run(context.operationRequest(body))
        return "Saved."
    }

    private static func parseClaims(_ text: String) throws(AuthError) -> JSONValue {
        try CustomClaims.validate(serialized: text)
        guard let value = try? JSONValue(parsing: text) else { throw AuthError.invalid("INVALID_CLAIMS") }
        return value
    }

    /// Sends an email action to the user through `sendOobCode`; the
    /// message lands in the outbox (through Apple's relay for a hidden email).
    private static func sendEmail(uid: String, form: RequestBody, context: ConsoleContext) throws -> String {
        guard let user = try context.environment.read(in: context.scope, { try $0.users.user(localId: uid, in: context.scope) }),
            let email = user.email
        else { throw AuthError.invalid("USER_NOT_FOUND : The user has no email.") }
        let requestType = try form.string("requestType") ?? "EMAIL_SIGNIN"
        // As the Admin SDK's generate_*_link asks (every type by email), but mailed to the outbox.
        var body: JSONObject = ["requestType": .string(requestType), "email": .string(email), "returnOobLink": true]
        if let continueUrl = try form.nonEmptyString("continueUrl") {
            body["continueUrl"] = .string(continueUrl)
            if requestType == "EMAIL_SIGNIN" { body["canHandleCodeInApp"] = true }
        }
        _ = try SendOobCode.run(context.operationRequest(body), mailingReturnedLink: true)
        return "Sent \(requestType) to \(email): see the outbox."
    }
}
