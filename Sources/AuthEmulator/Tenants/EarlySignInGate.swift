/// The reference decides `PROJECT_DISABLED` (and a disabled sign-in method) before it reads a
/// single field, so a request to a disabled tenant answers that whatever else it lacks.
extension OperationRequest {
    /// Throws what `requireEnabled(gate)` would, before the operation validates its body. A scope
    /// whose cached switches allow `gate` (the project's defaults, an enabled tenant) is let through
    /// with no transaction, so sign-ins pay nothing for it; otherwise a read decides. The
    /// operation's own `requireEnabled` inside its write still decides on committed state.
    func requireEnabledBeforeFields(_ gate: SignInGate = .account) throws {
        if let settings = environment.cachedSignInSettings(for: scope), settings.surelyAllows(gate, isPrivileged: isPrivileged) {
            return
        }
        try read { try $0.requireEnabled(gate) }
    }
}

extension SignInSettings {
    /// True only when `requireEnabled(gate)` cannot throw; false means "ask", never "refuse".
    func surelyAllows(_ gate: SignInGate, isPrivileged: Bool) -> Bool {
        guard !disabled else { return false }
        if isPrivileged { return true }
        switch gate {
        case .account: return true
        case .passwordSignIn, .passwordSignUp: return passwordEnabled
        case .emailLink: return emailLinkEnabled
        default: return false
        }
    }
}

extension AuthEnvironment {
    /// The scope's switches as the caches hold them, without touching the store; nil until read once.
    func cachedSignInSettings(for scope: UserScope) -> SignInSettings? {
        if scope.tenantId != nil { return tenantConfigs.cached(scope).map(SignInSettings.init(tenant:)) }
        return projectConfigs.cached(scope.projectId)?.signInSettings
    }
}
