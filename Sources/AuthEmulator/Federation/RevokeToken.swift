import JSON

/// v2 `accounts:revokeToken` (DESIGN §2.3): Sign in with Apple's token revocation before account
/// deletion. Firebase exchanges the authorization code with Apple and revokes the result, so the
/// code must be one Apple issued to this user's Apple ID, and fresh enough to be exchanged.
enum RevokeToken {
    /// Apple's authorization codes can be exchanged for five minutes.
    static let authorizationCodeLifetimeSeconds: Int64 = 300

    static func run(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        guard let idToken = try body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
        guard let providerId = try body.nonEmptyString("providerId") else {
            throw AuthError.invalid("INVALID_PROVIDER_ID : providerId is required; token revocation is for apple.com.")
        }
        guard providerId == "apple.com" else {
            throw AuthError.invalid("INVALID_PROVIDER_ID : Token revocation is only supported for apple.com, not \(providerId).")
        }
        // The Apple SDK sends the enum's number as a string ("3"); other clients its name.
        guard let tokenType = try body.string("tokenType"), ["CODE", "3"].contains(tokenType) else {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : tokenType must be CODE (3): the emulator revokes Apple authorization codes.")
        }
        guard let code = try body.nonEmptyString("token") else {
            throw AuthError.invalid("INVALID_ARGUMENT : token is required: the Apple authorization code to revoke.")
        }

        try request.write { transaction in
            let user = try transaction.authenticate(idToken: idToken).user
            guard let appleId = user.providers.first(where: { $0.providerId == providerId })?.rawId else {
                throw rejected("the signed-in user has no Apple ID linked")
            }
            let providers = transaction.store.fakeProviders
            guard let issued = try providers.authorizationCode(code) else {
                throw rejected("the fake Apple provider never issued this authorization code")
            }
            guard issued.sub == appleId else {
                throw rejected("the authorization code was issued to another Apple ID, not this user's \(appleId)")
            }
            guard try !providers.isRevoked(code) else {
                throw rejected("the authorization code was used already (codes are single-use)")
            }
            let expiry = issued.issuedAt.adding(seconds: authorizationCodeLifetimeSeconds)
            guard transaction.now <= expiry else {
                throw rejected(
                    "the authorization code expired at \(expiry.rfc3339) (codes last five minutes); re-authenticate with Apple for a fresh one")
            }
            try providers.insertRevocation(
                .init(code: code, sub: appleId, projectId: transaction.scope.projectId, revokedAt: transaction.now))
        }
        return [:]
    }

    private static func rejected(_ why: String) -> AuthError {
        AuthError.invalid("INVALID_IDP_RESPONSE : Apple refused the authorization code (invalid_grant): \(why).")
    }
}
