import JSON

/// v2 `projects/{p}[/tenants/{t}]/defaultSupportedIdpConfigs`: production's settings for the
/// built-in providers. Here they say which client ids (`clientId`, Apple's `bundleIds`) a
/// provider token's `aud` must name, and whether the provider is enabled.
enum ProviderConfigOperations {
    private static let editableFields = ["enabled", "clientId", "clientSecret", "appleSignInConfig"]

    static func create(_ request: OperationRequest) throws -> JSONObject {
        guard let providerId = request.queryValue("idpId"), !providerId.isEmpty else {
            throw AuthError.invalid("INVALID_PROVIDER_ID : idpId is required, e.g. ?idpId=apple.com.")
        }
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
        return ["defaultSupportedIdpConfigs": .array(configs.map { .object($0.config) })]
    }

    /// PATCH with `updateMask` (comma-separated field names) merges those fields; without one the
    /// body replaces the config.
    static func update(_ request: OperationRequest) throws -> JSONObject {
        let providerId = try providerId(request)
        let mask = request.queryValue("updateMask")?.split(separator: ",").map { String($0.split(separator: ".")[0]) }
        if let unknown = mask?.first(where: { !editableFields.contains($0) }) {
            throw AuthError.invalid("INVALID_ARGUMENT : updateMask names \(unknown), which is not a field of DefaultSupportedIdpConfig.")
        }
        let updated = try request.write { transaction -> JSONObject in
            let repository = transaction.store.providerConfigs
            guard let stored = try repository.config(providerId, in: transaction.scope) else { throw notFound(providerId) }
            var fields = stored.filtered(to: editableFields)
            for field in mask ?? editableFields {
                if let value = request.body.object[field] { fields[field] = value } else { fields[field] = nil }
            }
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
        return providerId
    }

    private static func notFound(_ providerId: String) -> AuthError {
        AuthError(
            httpStatus: 404, message: "CONFIGURATION_NOT_FOUND : No provider config for \(providerId).",
            reason: "notFound", status: "NOT_FOUND")
    }

    private static func document(_ fields: JSONObject, providerId: String, scope: UserScope) -> JSONObject {
        let tenant = scope.tenantId.map { "/tenants/\($0)" } ?? ""
        var config: JSONObject = ["name": .string("projects/\(scope.projectId)\(tenant)/defaultSupportedIdpConfigs/\(providerId)")]
        config["enabled"] = fields["enabled"] ?? true
        for field in editableFields.dropFirst() { config.setIfPresent(field, fields[field]) }
        return config
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
