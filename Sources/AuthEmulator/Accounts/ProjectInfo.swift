import JSON

/// The small read-only project endpoints (reference §2.1, §9.6).
enum ProjectInfo {
    static func getProjects(_ request: OperationRequest) throws -> JSONObject {
        guard request.scope.tenantId == nil else { throw AuthError.invalid("UNSUPPORTED_TENANT_OPERATION") }
        return ["projectId": .string(SecureToken.projectNumber), "authorizedDomains": ["localhost"]]
    }

    static func getRecaptchaParams(_ request: OperationRequest) throws -> JSONObject {
        [
            "kind": "identitytoolkit#GetRecaptchaParamResponse",
            "recaptchaStoken":
                "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha",
            "recaptchaSiteKey": "Fake-key__Do-not-send-this-to-Recaptcha_",
        ]
    }
}
