import JSON

/// One family of custom provider configs: OIDC (`oauthIdpConfigs`, ids `oidc.*`) or SAML
/// (`inboundSamlConfigs`, ids `saml.*`). Both are stored in `idp_configs` next to the built-in
/// providers' `defaultSupportedIdpConfigs`, keyed by provider id, so sign-in reads an OIDC
/// provider's `clientId` and `enabled` through `ProviderSettingsCache` like any other provider's.
struct IdpConfigKind: Sendable {
    /// The path segment and the list response's key.
    let collection: String
    /// The query parameter that names the new config on create.
    let idParameter: String
    let prefix: String
    let label: String
    /// The resource's name in errors, as production's messages call it.
    let resource: String
    /// The fields a request may set, in response order (`name` comes first, `enabled` is always there).
    let fields: [String]
    /// Checks a complete config (after defaults, or after an update mask was applied).
    let validate: @Sendable (JSONObject) throws(AuthError) -> Void
    /// Fields production fills in on create when the request leaves them out.
    let defaults: JSONObject

    static let oidc = IdpConfigKind(
        collection: "oauthIdpConfigs", idParameter: "oauthIdpConfigId", prefix: "oidc.", label: "OIDC",
        resource: "OAuthIdpConfig",
        fields: ["clientId", "issuer", "displayName", "enabled", "clientSecret", "responseType"],
        validate: IdpConfigOperations.validateOIDC, defaults: ["responseType": ["idToken": true]])

    static let saml = IdpConfigKind(
        collection: "inboundSamlConfigs", idParameter: "inboundSamlConfigId", prefix: "saml.", label: "SAML",
        resource: "InboundSamlConfig",
        fields: ["idpConfig", "spConfig", "displayName", "enabled"],
        validate: IdpConfigOperations.validateSAML, defaults: [:])

    /// Ids that belong to `oauthIdpConfigs` or `inboundSamlConfigs` rather than `defaultSupportedIdpConfigs`.
    static func isCustom(_ providerId: String) -> Bool {
        [oidc, saml].contains { (kind: IdpConfigKind) in providerId.hasPrefix(kind.prefix) }
    }

    static let defaultPageSize = 100
    static let maximumPageSize = 100
}

/// create, get, list, update (with `updateMask`) and delete for one `IdpConfigKind`, project or
/// tenant, as the Admin SDKs call them.
enum IdpConfigOperations {
    static func create(_ kind: IdpConfigKind) -> @Sendable (OperationRequest) throws -> JSONObject {
        { request in
            let providerId = try checkedId(request.queryValue(kind.idParameter), kind, parameter: kind.idParameter)
            try checkTypes(request.body.object, kind)
            var fields = kind.defaults
            fields.merge(request.body.object.filtered(to: kind.fields))
            let config = document(fields, providerId: providerId, kind: kind, scope: request.scope)
            try kind.validate(config)
            let inserted = try request.write { try $0.store.providerConfigs.insert(config, for: providerId, in: $0.scope) }
            guard inserted else {
                throw AuthError.invalid("CONFIGURATION_EXISTS : A \(kind.label) provider config named \(providerId) already exists.")
            }
            request.environment.providerAudiences.invalidate()
            return config
        }
    }

    static func get(_ kind: IdpConfigKind) -> @Sendable (OperationRequest) throws -> JSONObject {
        { request in
            let providerId = try checkedId(request.pathParameters["idpId"], kind)
            guard let config = try request.read({ try $0.store.providerConfigs.config(providerId, in: $0.scope) }) else {
                throw ProviderConfigOperations.notFound(providerId)
            }
            return config
        }
    }

    /// Sorted by provider id; `pageToken` is the last id of the previous page.
    static func list(_ kind: IdpConfigKind) -> @Sendable (OperationRequest) throws -> JSONObject {
        { request in
            var pageSize = IdpConfigKind.defaultPageSize
            if let text = request.queryValue("pageSize") {
                guard let requested = Int(text), requested >= 0 else {
                    throw AuthError.invalidArgument("Invalid value at 'page_size' (TYPE_INT32), \"\(text)\"")
                }
                if requested > 0 { pageSize = min(requested, IdpConfigKind.maximumPageSize) }
            }
            let after = request.queryValue("pageToken") ?? ""
            if !after.isEmpty, !after.hasPrefix(kind.prefix) {
                throw AuthError.invalid("INVALID_PAGE_SELECTION : \(after) is not a page token of \(kind.collection).")
            }
            let configs = try request.read { try $0.store.providerConfigs.configs(in: $0.scope) }
                .filter { $0.providerId.hasPrefix(kind.prefix) && $0.providerId > after }
            let page = configs.prefix(pageSize)
            var response = JSONObject()
            if !page.isEmpty { response[kind.collection] = .array(page.map { .object($0.config) }) }
            if configs.count > pageSize, let last = page.last { response["nextPageToken"] = .string(last.providerId) }
            return response
        }
    }

    /// PATCH with `updateMask` (comma-separated paths such as `idpConfig.ssoUrl`) changes those
    /// fields; without one the body replaces the config. The result must still be a valid config.
    static func update(_ kind: IdpConfigKind) -> @Sendable (OperationRequest) throws -> JSONObject {
        { request in
            let providerId = try checkedId(request.pathParameters["idpId"], kind)
            let mask = try ProviderConfigOperations.updateMask(request, editableFields: kind.fields, resource: kind.resource)
            try checkTypes(request.body.object, kind)
            let updated = try request.write { transaction -> JSONObject in
                let repository = transaction.store.providerConfigs
                guard let stored = try repository.config(providerId, in: transaction.scope) else {
                    throw ProviderConfigOperations.notFound(providerId)
                }
                let fields = ProviderConfigOperations.applying(
                    mask ?? kind.fields.map { [$0] }, from: request.body.object, to: stored.filtered(to: kind.fields))
                let config = document(fields, providerId: providerId, kind: kind, scope: transaction.scope)
                try kind.validate(config)
                try repository.replace(config, for: providerId, in: transaction.scope)
                return config
            }
            request.environment.providerAudiences.invalidate()
            return updated
        }
    }

    static func delete(_ kind: IdpConfigKind) -> @Sendable (OperationRequest) throws -> JSONObject {
        { request in
            let providerId = try checkedId(request.pathParameters["idpId"], kind)
            guard try request.write({ try $0.store.providerConfigs.delete(providerId, in: $0.scope) }) else {
                throw ProviderConfigOperations.notFound(providerId)
            }
            request.environment.providerAudiences.invalidate()
            return [:]
        }
    }

    // MARK: Documents and checks

    private static func checkedId(_ value: String?, _ kind: IdpConfigKind, parameter: String? = nil) throws(AuthError) -> String {
        guard let providerId = value, !providerId.isEmpty else {
            let detail = parameter.map { " : \($0) is required, e.g. ?\($0)=\(kind.prefix)example." } ?? ""
            throw AuthError.invalid("MISSING_CONFIG_ID\(detail)")
        }
        let name = providerId.dropFirst(kind.prefix.count)
        guard providerId.hasPrefix(kind.prefix), !name.isEmpty,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw AuthError.invalid("INVALID_CONFIG_ID : \(kind.label) provider ids start with \"\(kind.prefix)\" followed by letters, digits, \"-\", \"_\" or \".\"; got \(providerId).")
        }
        return providerId
    }

    /// Production's order: `name`, the kind's fields, with `enabled` always present (false unless set).
    private static func document(_ fields: JSONObject, providerId: String, kind: IdpConfigKind, scope: UserScope) -> JSONObject {
        var config: JSONObject = ["name": .string(ProviderConfigOperations.resourceName(kind.collection, providerId, in: scope))]
        for field in kind.fields {
            if let value = fields[field], !value.isNull {
                config[field] = value
            } else if field == "enabled" {
                config[field] = false
            }
        }
        return config
    }

    static let objectFields: Set<String> = ["responseType", "idpConfig", "spConfig"]

    /// Wrong JSON types answer as Google's JSON parser does.
    private static func checkTypes(_ body: JSONObject, _ kind: IdpConfigKind) throws(AuthError) {
        for (field, value) in body.members where kind.fields.contains(field) {
            let fits: Bool
            switch field {
            case "enabled": fits = value.boolValue != nil
            case _ where objectFields.contains(field): fits = value.objectValue != nil
            default: fits = value.stringValue != nil
            }
            guard fits || value.isNull else {
                throw AuthError.invalidArgument("Invalid value at '\(kind.resource).\(field)', \(value.compactString)")
            }
        }
    }

    private static func isURL(_ value: JSONValue?) -> Bool {
        guard let text = value?.stringValue else { return false }
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) {
            let host = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !text.contains(" ")
        }
        return false
    }

    private static func nonEmptyString(_ value: JSONValue?) -> Bool {
        !(value?.stringValue ?? "").isEmpty
    }

    private static func invalidConfig(_ detail: String) -> AuthError {
        AuthError.invalid("INVALID_CONFIG : \(detail)")
    }

    fileprivate static func validateOIDC(_ config: JSONObject) throws(AuthError) {
        guard nonEmptyString(config["clientId"]) else {
            throw AuthError.invalid("MISSING_OAUTH_CLIENT_ID : The OAuth/OIDC configuration client ID must not be empty.")
        }
        guard nonEmptyString(config["issuer"]) else {
            throw AuthError.invalid("MISSING_ISSUER : The OIDC configuration issuer must not be empty.")
        }
        guard isURL(config["issuer"]) else { throw invalidConfig("issuer must be a valid http(s) URL.") }
        let responseType = config["responseType"]
        for flow in ["idToken", "code"] {
            guard let value = responseType?[flow], !value.isNull else { continue }
            guard value.boolValue != nil else { throw invalidConfig("responseType.\(flow) must be a boolean.") }
        }
        let code = responseType?["code"]?.boolValue ?? false
        guard code || responseType?["idToken"]?.boolValue == true else {
            throw invalidConfig("At least one response type (responseType.idToken or responseType.code) must be enabled.")
        }
        if code, !nonEmptyString(config["clientSecret"]) {
            throw AuthError.invalid("MISSING_OAUTH_CLIENT_SECRET : The OAuth configuration client secret is required to enable OIDC code flow.")
        }
    }

    fileprivate static func validateSAML(_ config: JSONObject) throws(AuthError) {
        let idp = config["idpConfig"]
        guard nonEmptyString(idp?["idpEntityId"]) else { throw invalidConfig("idpConfig.idpEntityId must not be empty.") }
        guard isURL(idp?["ssoUrl"]) else { throw invalidConfig("idpConfig.ssoUrl must be a valid http(s) URL.") }
        if let sign = idp?["signRequest"], !sign.isNull, sign.boolValue == nil {
            throw invalidConfig("idpConfig.signRequest must be a boolean.")
        }
        let certificates = idp?["idpCertificates"]?.arrayValue ?? []
        guard !certificates.isEmpty, certificates.allSatisfy({ nonEmptyString($0["x509Certificate"]) }) else {
            throw invalidConfig("idpConfig.idpCertificates must list at least one {x509Certificate} with a non-empty certificate.")
        }
        let sp = config["spConfig"]
        guard nonEmptyString(sp?["spEntityId"]) else {
            throw AuthError.invalid("MISSING_SAML_RELYING_PARTY_CONFIG : The SAML configuration provided is missing a relying party configuration.")
        }
        guard isURL(sp?["callbackUri"]) else { throw invalidConfig("spConfig.callbackUri must be a valid http(s) URL.") }
    }
}
