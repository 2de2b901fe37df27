import JSON

/// One tenant's settings as the v2 `Tenant` resource holds them (reference §11.4): a JSON
/// document without `name`/`tenantId`, which come from where it is stored.
struct TenantConfig: Sendable, Equatable {
    let tenantId: String
    var document: JSONObject

    /// A tenant named by a request but never created: everything enabled, as the reference's
    /// implicit creation gives, and nothing written.
    static func implicit(_ tenantId: String) -> TenantConfig {
        TenantConfig(
            tenantId: tenantId,
            document: [
                "allowPasswordSignup": true, "disableAuth": false, "enableAnonymousUser": true, "enableEmailLinkSignin": true,
                "mfaConfig": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]],
            ])
    }

    /// Production's defaults for what a create or a full replace leaves out.
    static let productionDefaults: JSONObject = [
        "allowPasswordSignup": false, "disableAuth": false, "enableAnonymousUser": false, "enableEmailLinkSignin": false,
        "mfaConfig": ["state": "DISABLED", "enabledProviders": []],
    ]

    /// The fields a client may set; `name` and `tenantId` are the server's.
    static func settable(from body: JSONObject) -> JSONObject {
        var copy = body
        copy["name"] = nil
        copy["tenantId"] = nil
        return copy
    }

    /// `body` over the production defaults, key by key (missing keys only).
    static func filled(_ body: JSONObject) -> JSONObject {
        var document = productionDefaults
        document.merge(settable(from: body))
        return document
    }

    func json(projectId: String) -> JSONObject {
        var object: JSONObject = ["name": .string("projects/\(projectId)/tenants/\(tenantId)"), "tenantId": .string(tenantId)]
        object.merge(document)
        return object
    }

    var disableAuth: Bool { document["disableAuth"]?.boolValue ?? false }
    var allowPasswordSignup: Bool { document["allowPasswordSignup"]?.boolValue ?? false }
    var enableEmailLinkSignin: Bool { document["enableEmailLinkSignin"]?.boolValue ?? false }
    var enableAnonymousUser: Bool { document["enableAnonymousUser"]?.boolValue ?? false }
    /// `ENABLED` or `MANDATORY`, as the reference reads `mfaConfig.state`.
    var mfaEnabled: Bool { ["ENABLED", "MANDATORY"].contains(ConfigDocument.string("mfaConfig.state", in: document)) }
    var mfaProviders: [String] {
        (ConfigDocument.value(at: ["mfaConfig", "enabledProviders"], in: document)?.arrayValue ?? []).compactMap(\.stringValue)
    }
}

/// Checks a tenant body's types before anything is stored, so a bad one writes nothing.
enum TenantValidation {
    static let booleans = ["allowPasswordSignup", "disableAuth", "enableAnonymousUser", "enableEmailLinkSignin"]

    static func validate(_ body: JSONObject) throws(AuthError) {
        for key in booleans {
            if let value = body[key], !value.isNull, value.boolValue == nil {
                throw AuthError.invalidArgument("/\(key) must be boolean")
            }
        }
        if let name = body["displayName"], !name.isNull, name.stringValue == nil {
            throw AuthError.invalidArgument("/displayName must be string")
        }
        if let mfa = body["mfaConfig"], !mfa.isNull {
            guard let object = mfa.objectValue else { throw AuthError.invalidArgument("/mfaConfig must be object") }
            if let state = object["state"]?.stringValue, !["ENABLED", "DISABLED", "MANDATORY", "STATE_UNSPECIFIED"].contains(state) {
                throw AuthError.invalidArgument("/mfaConfig/state must be equal to one of the allowed values")
            }
        }
        if let numbers = body["testPhoneNumbers"], !numbers.isNull, numbers.objectValue == nil {
            throw AuthError.invalidArgument("/testPhoneNumbers must be object")
        }
    }
}
