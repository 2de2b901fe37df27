import JSON

/// What a project's provider config (`defaultSupportedIdpConfigs`) means for sign-in.
struct ProviderSettings: Sendable, Equatable {
    var enabled = true
    /// The client ids a token's `aud` must name; empty when the project configured none.
    var audiences: [String] = []

    init(enabled: Bool = true, audiences: [String] = []) {
        self.enabled = enabled
        self.audiences = audiences
    }

    init(config: JSONObject) {
        enabled = config["enabled"]?.boolValue ?? true
        var audiences: [String] = []
        if let clientId = config["clientId"]?.stringValue, !clientId.isEmpty { audiences.append(clientId) }
        for bundleId in config["appleSignInConfig"]?["bundleIds"]?.arrayValue ?? [] {
            if let bundleId = bundleId.stringValue, !bundleId.isEmpty { audiences.append(bundleId) }
        }
        self.audiences = audiences
    }
}

/// Provider settings per (scope, provider), read once and kept until a config changes, so that a
/// sign-in does not read project config from the store every time.
final class ProviderSettingsCache: Sendable {
    private let entries = Locked<[String: ProviderSettings]>([:])

    func settings(of providerId: String, in scope: UserScope, environment: AuthEnvironment) throws -> ProviderSettings {
        let key = "\(scope.projectId)/\(scope.tenantKey)/\(providerId)"
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let config = try environment.store.read { try $0.providerConfigs.config(providerId, in: scope) }
        let settings = config.map(ProviderSettings.init(config:)) ?? ProviderSettings()
        entries.withLock { $0[key] = settings }
        return settings
    }

    func audiences(of providerId: String, in scope: UserScope, environment: AuthEnvironment) throws -> [String] {
        try settings(of: providerId, in: scope, environment: environment).audiences
    }

    /// A provider the project switched off refuses sign-in, as in production.
    func checkEnabled(_ providerId: String, in scope: UserScope, environment: AuthEnvironment) throws {
        guard try settings(of: providerId, in: scope, environment: environment).enabled else {
            throw AuthError.invalid("OPERATION_NOT_ALLOWED : The identity provider configuration is disabled.")
        }
    }

    /// Called after a config change has committed.
    func invalidate() {
        entries.withLock { $0.removeAll() }
    }
}
