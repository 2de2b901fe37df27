import HTML
import JSON

/// What the emulator's API lets a project set, in one page: sign-in settings (duplicate emails,
/// improved email privacy), test phone numbers and their fixed codes, tenants (list and create),
/// and the senders registered with Apple's relay. Each form goes through the same operation as
/// its JSON route.
enum ConsoleSettingsPage {
    static let tenantsShown = 100

    // MARK: GET /emulator/ui/settings

    static func show(_ request: OperationRequest) throws -> OperationResult {
        try page(ConsoleContext(request), form: nil)
    }

    /// The page; `form` is a refused post of one of its forms, drawn as it was typed.
    static func page(_ context: ConsoleContext, form refused: ConsoleForm?) throws -> OperationResult {
        func form(_ action: String) -> ConsoleForm { (refused ?? ConsoleForm(action)).form(action) }
        let numbersForm = form("test-phone-numbers"), tenantForm = form("create-tenant"), signIn = form("sign-in")
        let projectId = context.scope.projectId
        let (config, tenants, senders) = try context.environment.read(in: context.projectScope) { transaction in
            (
                try transaction.config(), try transaction.store.tenants.list(projectId: projectId, after: nil, limit: tenantsShown),
                try transaction.store.outbox.registeredSenders(projectId: projectId)
            )
        }
        let numbers = config.testPhoneNumbers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
        let tenantRows = tenants.map { tenant -> HTML in
            let current: HTML = tenant.tenantId == context.scope.tenantId ? " \(ConsoleLayout.badge("shown now", kind: "active"))" : ""
            let flags = [("password", tenant.allowPasswordSignup), ("email link", tenant.enableEmailLinkSignin),
                ("anonymous", tenant.enableAnonymousUser)].filter(\.1).map(\.0)
            return """
                <tr><td class="mono"><a href="\(context.link("/users", tenant: tenant.tenantId))">\(tenant.tenantId)</a>\(current)</td>\
                <td>\(tenant.document["displayName"]?.stringValue)</td><td>\(flags.isEmpty ? "none" : flags.joined(separator: ", "))</td>\
                <td><a href="\(context.link("/outbox", tenant: tenant.tenantId))">outbox</a></td></tr>
                """
        }
        let tenantNote: HTML = context.scope.tenantId.map { tenant -> HTML in
            "<p class=\"muted\">The console shows tenant <strong>\(tenant)</strong>; these settings are the project's.</p>"
        } ?? ""
        let sections: [(id: String, label: String)] = [("sign-in", "Sign-in"), ("test-phone-numbers", "Test phone numbers"),
            ("tenants", "Tenants"), ("senders", "Relay senders")]
        let content: HTML = """
            <nav class="subnav" aria-label="Sections">\(HTML.joined(sections.map { "<a href=\"#\($0.id)\">\($0.label)</a>" }))</nav>
            \(tenantNote)
            <div class="cards">
            <section id="sign-in"><h2>Sign-in</h2>
            \(context.form("/settings", class: "card", """
            <input type="hidden" name="action" value="sign-in">
            \(signIn.formNote(fields: []))
            \(signIn.checkbox(
                "<span>Allow several accounts with the same email <code>signIn.allowDuplicateEmails</code></span>", "allowDuplicateEmails",
                checked: config.allowDuplicateEmails, classes: "setting"))
            \(signIn.checkbox(
                "<span>Improved email privacy: no email enumeration <code>emailPrivacyConfig.enableImprovedEmailPrivacy</code></span>",
                "improvedEmailPrivacy", checked: config.improvedEmailPrivacy, classes: "setting"))
            <div class="actions"><button type="submit" class="primary">Save sign-in settings</button></div>
            """))</section>
            <section id="test-phone-numbers"><h2>Test phone numbers</h2>
            <p class="muted">A fictional number signs in with its fixed code and no SMS is sent, as production's console allows.</p>
            \(context.form("/settings", class: "card", """
            <input type="hidden" name="action" value="test-phone-numbers">
            \(numbersForm.formNote(fields: ["numbers"]))
            \(numbersForm.textarea("One number and its six-digit code a line", "numbers", value: numbers, rows: 4, placeholder: "+16505550101 123456"))
            <div class="actions"><button type="submit" class="primary">Save test phone numbers</button></div>
            """))</section>
            <section id="tenants"><h2>Tenants of project \(projectId)</h2>
            \(ConsoleLayout.table(["Tenant id", "Display name", "Sign-in allowed", ""], tenantRows, empty: "No tenants yet."))
            \(context.form("/settings", class: "card", """
            <input type="hidden" name="action" value="create-tenant">
            <h3>Create a tenant</h3>
            \(tenantForm.formNote(fields: ["displayName"]))
            \(tenantForm.input("Display name", "displayName", placeholder: "Team A", attributes: " required"))
            \(tenantForm.checkbox("Email and password sign-in", "allowPasswordSignup", checked: true))
            \(tenantForm.checkbox("Email link sign-in", "enableEmailLinkSignin", checked: true))
            \(tenantForm.checkbox("Anonymous sign-in", "enableAnonymousUser", checked: true))
            <div class="actions"><button type="submit" class="primary">Create tenant</button></div>
            """))</section>
            <section id="senders"><h2>Apple: registered senders of project \(projectId)</h2>
            <p class="muted">Mail to a relay address is relayed only from these senders; from any other it bounces.</p>
            \(ConsoleProviderPages.sendersForm(context, senders: senders, form: form("senders"), backToSettings: true))</section>
            </div>
            """
        return ConsoleLayout.page(context, .settings, title: "Settings", content)
    }

    // MARK: POST /emulator/ui/settings

    static func action(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/settings"), again: page) { context, form in
            switch try form.string("action") ?? "" {
            case "sign-in":
                let body: JSONObject = [
                    "signIn": ["allowDuplicateEmails": .bool(try form.string("allowDuplicateEmails") != nil)],
                    "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(try form.string("improvedEmailPrivacy") != nil)],
                ]
                _ = try EmulatorOperations.updateConfig(context.operationRequest(body, scope: context.projectScope))
                return ("Saved the sign-in settings.", nil)
            case "test-phone-numbers":
                let numbers = try testPhoneNumbers(try form.string("numbers") ?? "")
                let body: JSONObject = ["signIn": ["phoneNumber": ["testPhoneNumbers": .object(numbers)]]]
                _ = try ConsoleProblem.about("numbers") {
                    try EmulatorOperations.updateConfig(context.operationRequest(body, scope: context.projectScope))
                }
                return ("Saved \(numbers.members.count) test phone number\(numbers.members.count == 1 ? "" : "s").", nil)
            case "create-tenant":
                guard let name = try form.nonEmptyString("displayName")?.trimmingWhitespace(), !name.isEmpty else {
                    throw ConsoleProblem(field: "displayName", "Enter a display name: a tenant needs one.")
                }
                var body: JSONObject = ["displayName": .string(name)]
                for flag in ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser"] {
                    body[flag] = .bool(try form.string(flag) != nil)
                }
                let tenant = try TenantOperations.create(context.operationRequest(body, scope: context.projectScope))
                let tenantId = tenant["tenantId"]?.stringValue ?? ""
                return ("Created tenant \(tenantId) (\(name)).", nil)
            default:
                throw AuthError.invalid("Unknown action.")
            }
        }
    }

    /// `+16505550101 123456` lines (a space, tab, `=` or `:` between) as the config's object; the
    /// operation checks the number and code.
    static func testPhoneNumbers(_ text: String) throws(ConsoleProblem) -> JSONObject {
        var numbers = JSONObject()
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split { $0 == " " || $0 == "\t" || $0 == "=" || $0 == ":" || $0 == "," }
            guard !fields.isEmpty else { continue }
            guard fields.count == 2 else {
                throw ConsoleProblem(field: "numbers", "Write each test number and its code on one line, e.g. +16505550101 123456 (not “\(line)”).")
            }
            numbers[String(fields[0])] = .string(String(fields[1]))
        }
        return numbers
    }
}
