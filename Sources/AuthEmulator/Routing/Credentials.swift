import HTTPServer

/// What a request proved about itself (reference §1.2). No credential is really validated: any
/// API key maps to the default project and `Bearer owner` is the admin.
struct Credentials {
    let hasAPIKey: Bool
    let isOwner: Bool

    /// Reads `?key=`, `x-goog-api-key` and `Authorization: Bearer …`. Any other bearer token is
    /// refused outright, so that a Firebase ID token sent as a bearer fails loudly.
    init(request: HTTPRequest, logger: Logger, defaultProjectId: String) throws(AuthError) {
        let key = request.queryValue("key") ?? request.headers["x-goog-api-key"]
        hasAPIKey = !(key ?? "").isEmpty
        var isOwner = false
        if let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            let token = authorization.dropFirst("bearer ".count).trimmingWhitespace()
            if token.lowercased() == "owner" {
                isOwner = true
            } else if token.hasPrefix("ya29.") {
                // The reference logs the whole token; a bearer token never goes into our log.
                logger.warning(
                    "Received service account token ya29.… (redacted). Assuming that it owns project \"\(defaultProjectId)\".")
                isOwner = true
            } else {
                throw AuthError.invalidCredentials
            }
        }
        self.isOwner = isOwner
    }

    /// Whether the operation may run; `true` means admin behaviour.
    func authorize(_ access: Access) throws(AuthError) -> Bool {
        switch access {
        case .open:
            return isOwner
        case .apiKeyOrOwner:
            guard isOwner || hasAPIKey else { throw AuthError.missingAPIKey }
            return isOwner
        case .apiKeyOnly:
            guard hasAPIKey else { throw AuthError.missingAPIKey }
            return false
        }
    }
}
