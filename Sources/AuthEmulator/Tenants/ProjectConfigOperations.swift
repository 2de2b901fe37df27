import JSON

/// v2 `projects/{p}/config` GET and PATCH (reference §11.2), on the same document the emulator's
/// own config route reads.
enum ProjectConfigOperations {
    static func get(_ request: OperationRequest) throws -> JSONObject {
        guard request.scope.tenantId == nil else {
            throw AuthError.invalid("INVALID_ARGUMENT : ((Can only get top-level configurations on agent projects.))")
        }
        let config = try request.read { try $0.config() }
        return ProjectConfigView.json(config, projectId: request.scope.projectId)
    }

    /// With `updateMask`, each masked path is copied from the body; without it the document is
    /// replaced. `blockingFunctions` is validated whether or not it is in the mask.
    static func patch(_ request: OperationRequest) throws -> JSONObject {
        guard request.scope.tenantId == nil else {
            throw AuthError.invalid("INVALID_ARGUMENT : ((Can only update top-level configurations on agent projects.))")
        }
        var body = request.body.object
        body["name"] = nil
        try ProjectConfigValidation.validate(body)
        let paths = ConfigDocument.maskPaths(request.queryValue("updateMask"))
        return try request.write { transaction in
            var config = try transaction.config()
            config.document = paths.isEmpty ? body : ConfigDocument.merge(body, into: config.document, paths: paths)
            try ProjectConfigValidation.validate(config.document)
            try transaction.environment.projectConfigs.save(config, for: transaction.scope.projectId, store: transaction.store)
            return ProjectConfigView.json(config, projectId: transaction.scope.projectId)
        }
    }
}

/// The config as GET and PATCH answer it: the stored document as it is, plus the reference's
/// three defaults when absent (`signIn.allowDuplicateEmails` false, `blockingFunctions` `{}`,
/// `emailPrivacyConfig.enableImprovedEmailPrivacy` false). Switches never stored (email, phone,
/// anonymous sign-in, MFA) are on, but are not written into the answer: the official emulator
/// answers exactly its stored `signIn` and `blockingFunctions` documents.
enum ProjectConfigView {
    static func json(_ config: ProjectConfig, projectId: String) -> JSONObject {
        var view: JSONObject = ["name": .string("projects/\(projectId)/config")]
        view.merge(config.document)
        var signIn = config.document["signIn"]?.objectValue ?? [:]
        if signIn["allowDuplicateEmails"]?.boolValue == nil { signIn["allowDuplicateEmails"] = false }
        view["signIn"] = .object(signIn)
        if view["blockingFunctions"]?.objectValue == nil { view["blockingFunctions"] = [:] }
        var privacy = config.document["emailPrivacyConfig"]?.objectValue ?? [:]
        if privacy["enableImprovedEmailPrivacy"]?.boolValue == nil { privacy["enableImprovedEmailPrivacy"] = false }
        view["emailPrivacyConfig"] = .object(privacy)
        return view
    }
}

/// Type and value checks for a config body or a merged document; a bad one writes nothing.
enum ProjectConfigValidation {
    static let triggers: Set<String> = ["beforeCreate", "beforeSignIn", "beforeSendEmail", "beforeSendSms"]

    static func validate(_ document: JSONObject) throws(AuthError) {
        for path in [
            "signIn.allowDuplicateEmails", "signIn.email.enabled", "signIn.email.passwordRequired", "signIn.anonymous.enabled",
            "signIn.phoneNumber.enabled", "emailPrivacyConfig.enableImprovedEmailPrivacy",
        ] {
            if let value = ConfigDocument.value(at: path.split(separator: ".").map(String.init), in: document), !value.isNull,
                value.boolValue == nil
            {
                throw AuthError.invalidArgument("/\(path.replacingDots()) must be boolean")
            }
        }
        if let state = ConfigDocument.value(at: ["mfa", "state"], in: document), !state.isNull,
            !["ENABLED", "DISABLED", "MANDATORY", "STATE_UNSPECIFIED"].contains(state.stringValue ?? "")
        {
            throw AuthError.invalidArgument("/mfa/state must be equal to one of the allowed values")
        }
        if let numbers = ConfigDocument.value(at: ["signIn", "phoneNumber", "testPhoneNumbers"], in: document), !numbers.isNull {
            guard let numbers = numbers.objectValue else {
                throw AuthError.invalidArgument("/signIn/phoneNumber/testPhoneNumbers must be object")
            }
            for (number, code) in numbers.members {
                guard PhoneNumber.isValid(number) else {
                    throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format: \(number) (test numbers start with +).")
                }
                guard let code = code.stringValue, code.count == 6, code.allSatisfy(\.isNumber) else {
                    throw AuthError.invalid("INVALID_TEST_PHONE_NUMBER_CODE : The code of \(number) must be six digits.")
                }
            }
        }
        try validateBlockingFunctions(document["blockingFunctions"])
    }

    private static func validateBlockingFunctions(_ value: JSONValue?) throws(AuthError) {
        guard let value, !value.isNull else { return }
        guard let object = value.objectValue else { throw AuthError.invalidArgument("/blockingFunctions must be object") }
        guard let triggers = object["triggers"], !triggers.isNull else { return }
        guard let map = triggers.objectValue else { throw AuthError.invalidArgument("/blockingFunctions/triggers must be object") }
        for (event, trigger) in map.members {
            guard Self.triggers.contains(event) else {
                throw AuthError.invalid("INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))")
            }
            guard let uri = trigger["functionUri"]?.stringValue, BlockingFunctionURI.isAbsolute(uri) else {
                throw AuthError.invalid("INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))")
            }
        }
    }
}

enum BlockingFunctionURI {
    /// `http(s)://host[...]`.
    static func isAbsolute(_ uri: String) -> Bool {
        for scheme in ["http://", "https://"] where uri.hasPrefix(scheme) {
            let rest = uri.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.hasPrefix(":")
        }
        return false
    }
}

extension String {
    fileprivate func replacingDots() -> String { split(separator: ".").joined(separator: "/") }
}
