import JSON

/// What a sign-in or account call needs the project or tenant to allow (reference §11.4
/// "Tenant effects"). Operations call `transaction.requireEnabled(…)` once, inside their
/// transaction, before they change anything.
enum SignInGate: Sendable {
    /// Only `disableAuth` (`PROJECT_DISABLED`): lookups, updates, deletes, createAuthUri, custom tokens, IdP.
    case account
    case passwordSignUp
    case passwordSignIn
    case anonymousSignUp
    case emailLink
    /// Phone sign-in (project only: tenants answer `UNSUPPORTED_TENANT_OPERATION` before this).
    case phone
    /// The SMS second-factor routes (enroll and sign in): the tenant's `mfaConfig` must be on and list
    /// `PHONE_SMS`, checked before any field of the request, as in the reference.
    case smsSecondFactor
    /// TOTP enrollment and sign-in (the reference has no TOTP): the tenant's `mfaConfig` must be on.
    case totpSecondFactor
}

/// The effective switches for one scope: a tenant's document, or the project's `signIn` block
/// (whose defaults are the official emulator's fixed "everything on").
struct SignInSettings: Sendable, Equatable {
    var disabled = false
    var passwordEnabled = true
    var emailLinkEnabled = true
    var anonymousEnabled = true
    var phoneEnabled = true
    var secondFactorsEnabled = true
    var smsSecondFactorEnabled = true

    init(tenant: TenantConfig) {
        disabled = tenant.disableAuth
        passwordEnabled = tenant.allowPasswordSignup
        emailLinkEnabled = tenant.enableEmailLinkSignin
        anonymousEnabled = tenant.enableAnonymousUser
        secondFactorsEnabled = tenant.mfaEnabled
        smsSecondFactorEnabled = tenant.mfaEnabled && tenant.mfaProviders.contains("PHONE_SMS")
    }

    init(projectDocument document: JSONObject) {
        let email = ConfigDocument.bool("signIn.email.enabled", in: document) ?? true
        passwordEnabled = email
        emailLinkEnabled = email
        anonymousEnabled = ConfigDocument.bool("signIn.anonymous.enabled", in: document) ?? true
        phoneEnabled = ConfigDocument.bool("signIn.phoneNumber.enabled", in: document) ?? true
    }
}

extension AccountsTransaction {
    /// The tenant of this scope (implicitly all-enabled when never stored), or `nil` for the project.
    func tenantConfig() throws -> TenantConfig? {
        try environment.tenantConfigs.config(for: scope, store: store)
    }

    func signInSettings() throws -> SignInSettings {
        if let tenant = try tenantConfig() { return SignInSettings(tenant: tenant) }
        return try config().signInSettings
    }

    /// Throws the reference's error when the scope does not allow `gate`. Admin calls
    /// (`Bearer owner`) pass the per-method switches, as in the reference, but not `disableAuth`.
    func requireEnabled(_ gate: SignInGate = .account) throws {
        let settings = try signInSettings()
        guard !settings.disabled else { throw AuthError.invalid("PROJECT_DISABLED") }
        guard !isPrivileged else { return }
        switch gate {
        case .account: return
        case .passwordSignUp: if !settings.passwordEnabled { throw AuthError.invalid("OPERATION_NOT_ALLOWED") }
        case .passwordSignIn: if !settings.passwordEnabled { throw AuthError.invalid("PASSWORD_LOGIN_DISABLED") }
        case .anonymousSignUp: if !settings.anonymousEnabled { throw AuthError.invalid("ADMIN_ONLY_OPERATION") }
        case .emailLink: if !settings.emailLinkEnabled { throw AuthError.invalid("OPERATION_NOT_ALLOWED") }
        case .phone: if !settings.phoneEnabled { throw AuthError.invalid("OPERATION_NOT_ALLOWED") }
        case .smsSecondFactor:
            if !settings.smsSecondFactorEnabled { throw AuthError.invalid("OPERATION_NOT_ALLOWED : SMS based MFA not enabled.") }
        case .totpSecondFactor:
            if !settings.secondFactorsEnabled { throw AuthError.invalid("OPERATION_NOT_ALLOWED : TOTP based MFA not enabled.") }
        }
    }

    /// Whether a first-factor sign-in of a user with second factors stops at `mfaPendingCredential`:
    /// always for the default project (the official emulator fixes MFA on), by `mfaConfig.state` in a tenant.
    var enforcesSecondFactors: Bool {
        get throws { try signInSettings().secondFactorsEnabled }
    }
}
