import JSON

/// v2 `projects/{p}[/tenants/{t}]/defaultSupportedIdpConfigs`: production's settings for the
/// built-in providers. Here they say which client ids (`clientId`, Apple's `bundleIds`) a
/// provider token's `aud` must name, and whether the provider is enabled.
enum ProviderConfigOperations {
    static let editableFields = ["enabled", "clientId", "clientSecret", "appleSignInConfig"]

    static func create(_ request: OperationRequest) throws -> JSONObject {
        guard let providerId = request.queryValue("idpId"), !providerId.isEmpty else {
            throw AuthError.invalid("INVALID_PROVIDER_ID : idpId is required, e.g. ?idpId=apple.com.")
        }
        try refuseCustom(providerId)
        let config = document(request.body.object.filtered(to: editableFields), providerId: providerId, scope: request.scope)
        let inserted = try request.write { try $0.store.providerConfigs.insert(config, for: providerId, in: $0.scope) }
        guard inserted else { throw AuthError.invalid("DUPLICATE_DEFAULT_IDP_CONFIG : \(providerId) is configured already.") }
        request.environment.providerAudiences.invalidate()
        return config
    }

    static func get(_ request: OperationRequest) throws -> JSONObject {
        let providerId = try providerId(request)
        guard let config = try request.read({ try $0.store.providerConfigs.config(providerId, in: $0.scope) }) else {
            throw notFound(providerId)
        }
        return config
    }

    static func list(_ request: OperationRequest) throws -> JSONObject {
        let configs = try request.read { try $0.store.providerConfigs.configs(in: $0.scope) }
            .filter { !IdpConfigKind.isCustom($0.providerId) }
        return ["defaultSupportedIdpConfigs": .array(configs.map { .object($0.config) })]
    }

    /// PATCH with `updateMask` (comma-separated field names) merges those fields; without one the
    /// body replaces the config.
    static func update(_ request: OperationRequest) throws -> JSONObject {
        let providerId = try providerId(request)
        let mask = try updateMask(request, editableFields: editableFields, resource: "DefaultSupportedIdpConfig")
        let updated = try request.write { transaction -> JSONObject in
            let repository = transaction.store.providerConfigs
            guard let stored = try repository.config(providerId, in: transaction.scope) else { throw notFound(providerId) }
            let fields = applying(mask ?? editableFields.map { [$0] }, from: request.body.object, to: stored.filtered(to: editableFields))
            let config = document(fields, providerId: providerId, scope: transaction.scope)
            try repository.replace(config, for: providerId, in: transaction.scope)
            return config
        }
        request.environment.providerAudiences.invalidate()
        return updated
    }

    static func delete(_ request: OperationRequest) throws -> JSONObject {
        let providerId = try providerId(request)
        guard try request.write({ try $0.store.providerConfigs.delete(providerId, in: $0.scope) }) else {
            throw notFound(providerId)
        }
        request.environment.providerAudiences.invalidate()
        return [:]
    }

    private static func providerId(_ request: OperationRequest) throws(AuthError) -> String {
        guard let providerId = request.pathParameters["idpId"], !providerId.isEmpty else {
            throw AuthError.invalid("INVALID_PROVIDER_ID")
        }
        try refuseCustom(providerId)
        return providerId
    }

    /// `oidc.*` and `saml.*` configs live under `oauthIdpConfigs` and `inboundSamlConfigs`.
    private static func refuseCustom(_ providerId: String) throws(AuthError) {
        guard !IdpConfigKind.isCustom(providerId) else {
            throw AuthError.invalid("INVALID_PROVIDER_ID : \(providerId) is not a built-in provider; configure it under oauthIdpConfigs or inboundSamlConfigs.")
        }
    }

    private static func document(_ fields: JSONObject, providerId: String, scope: UserScope) -> JSONObject {
        var config: JSONObject = ["name": .string(resourceName("defaultSupportedIdpConfigs", providerId, in: scope))]
        config["enabled"] = fields["enabled"] ?? true
        for field in editableFields.dropFirst() { config.setIfPresent(field, fields[field]) }
        return config
    }

    // MARK: Shared with the OIDC and SAML configs (IdpConfigOperations)

    /// `projects/{p}[/tenants/{t}]/{collection}/{id}`.
    static func resourceName(_ collection: String, _ id: String, in scope: UserScope) -> String {
        let tenant = scope.tenantId.map { "/tenants/\($0)" } ?? ""
        return "projects/\(scope.projectId)\(tenant)/\(collection)/\(id)"
    }

    /// The `updateMask` query as field paths (`idpConfig.ssoUrl` → `["idpConfig", "ssoUrl"]`); nil
    /// without one. Each path must start with one of `editableFields`.
    static func updateMask(_ request: OperationRequest, editableFields: [String], resource: String) throws(AuthError) -> [[String]]? {
        guard let query = request.queryValue("updateMask") else { return nil }
        let paths = query.split(separator: ",").map { $0.split(separator: ".").map(String.init) }
        if let unknown = paths.first(where: { path in path.isEmpty || path.contains("") || !editableFields.contains(path[0]) }) {
            throw AuthError.invalid("INVALID_ARGUMENT : updateMask names \(unknown.joined(separator: ".")), which is not a field of \(resource).")
        }
        return paths
    }

    /// `stored` with each masked path copied from `body`; a path the body leaves out is cleared
    /// (an object emptied that way goes too).
    static func applying(_ mask: [[String]], from body: JSONObject, to stored: JSONObject) -> JSONObject {
        mask.reduce(stored) { fields, path in setting(path[...], from: body, in: fields) }
    }

    private static func setting(_ path: ArraySlice<String>, from source: JSONObject?, in target: JSONObject) -> JSONObject {
        guard let key = path.first else { return target }
        var target = target
        if path.count == 1 {
            target[key] = source?[key]
        } else {
            let nested = setting(path.dropFirst(), from: source?[key]?.objectValue, in: target[key]?.objectValue ?? JSONObject())
            target[key] = nested.isEmpty ? nil : .object(nested)
        }
        return target
    }

    static func notFound(_ providerId: String) -> AuthError {
        AuthError(
            httpStatus: 404, message: "CONFIGURATION_NOT_FOUND : No provider config for \(providerId).",
            reason: "notFound", status: "NOT_FOUND")
    }
}

extension JSONObject {
    /// Only the members named in `names`, in this object's order.
    func filtered(to names: [String]) -> JSONObject {
        var result = JSONObject()
        for (key, value) in members where names.contains(key) { result[key] = value }
        return result
    }
}
