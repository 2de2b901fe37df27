import JSON

/// v2 `accounts:revokeToken` (DESIGN §2.3): Sign in with Apple's token revocation before account
/// deletion. The Apple SDK sends an authorization code (`tokenType` CODE, or its number 3):
/// Firebase exchanges it with Apple and revokes the result, so the code must be one Apple issued
/// to this user's Apple ID, and fresh enough to be exchanged. The JS SDK's `revokeAccessToken`
/// sends Apple's OAuth access token (ACCESS_TOKEN, 2), revoked as it is while it lasts.
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
        let kind: FakeProviderRepository.RevokedToken
        switch try body.string("tokenType") {
        case "CODE", "3": kind = .authorizationCode
        case "ACCESS_TOKEN", "2": kind = .accessToken
        default:
            throw AuthError.invalid(
                "INVALID_ARGUMENT : tokenType must be CODE (3), an Apple authorization code, or ACCESS_TOKEN (2), an Apple access token.")
        }
        guard let token = try body.nonEmptyString("token") else {
            throw AuthError.invalid("INVALID_ARGUMENT : token is required: the Apple authorization code or access token to revoke.")
        }

        try request.write { transaction in
            let user = try transaction.authenticate(idToken: idToken).user
            guard let appleId = user.providers.first(where: { $0.providerId == providerId })?.rawId else {
                throw rejected(kind, "the signed-in user has no Apple ID linked")
            }
            let providers = transaction.store.fakeProviders
            let (sub, expiry): (String, Instant)
            switch kind {
            case .authorizationCode:
                guard let issued = try providers.authorizationCode(token) else {
                    throw rejected(kind, "the fake Apple provider never issued this \(kind.name)")
                }
                (sub, expiry) = (issued.sub, issued.issuedAt.adding(seconds: authorizationCodeLifetimeSeconds))
            case .accessToken:
                guard let issued = try providers.accessToken(token), issued.providerId == providerId else {
                    throw rejected(kind, "the fake Apple provider never issued this \(kind.name)")
                }
                (sub, expiry) = (issued.sub, issued.expiresAt)
            }
            guard sub == appleId else {
                throw rejected(kind, "the \(kind.name) was issued to another Apple ID, not this user's \(appleId)")
            }
            guard try !providers.isRevoked(token) else {
                throw rejected(kind, kind == .authorizationCode
                    ? "the authorization code was used already (codes are single-use)" : "the access token was revoked already")
            }
            guard transaction.now <= expiry else {
                throw rejected(kind, kind == .authorizationCode
                    ? "the authorization code expired at \(expiry.rfc3339) (codes last five minutes); re-authenticate with Apple for a fresh one"
                    : "the access token expired at \(expiry.rfc3339); re-authenticate with Apple for a fresh one")
            }
            try providers.insertRevocation(
                .init(code: token, tokenType: kind, sub: appleId, projectId: transaction.scope.projectId, revokedAt: transaction.now))
        }
        return [:]
    }

    private static func rejected(_ kind: FakeProviderRepository.RevokedToken, _ why: String) -> AuthError {
        AuthError.invalid("INVALID_IDP_RESPONSE : Apple refused the \(kind.name) (invalid_grant): \(why).")
    }
}
