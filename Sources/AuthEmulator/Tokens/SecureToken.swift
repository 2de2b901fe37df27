import JSON

/// `POST /securetoken.googleapis.com/v1/token`: exchanges a refresh token for a new ID token
/// (reference §7.5). Unlike the reference emulator, and like production, a refresh token stops
/// working once the user's `validSince` passes its issue time, or the user is disabled or deleted.
enum SecureToken {
    /// The reference emulator's fake project number.
    static let projectNumber = "12345"

    static func run(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        guard let grantType = try body.nonEmptyString("grantType") else { throw AuthError.invalid("MISSING_GRANT_TYPE") }
        guard grantType == "refresh_token" else { throw AuthError.invalid("INVALID_GRANT_TYPE") }
        guard let token = try body.nonEmptyString("refreshToken") else { throw AuthError.invalid("MISSING_REFRESH_TOKEN") }

        let (user, claims) = try request.write { transaction in
            guard let record = try transaction.store.refreshTokens.find(token),
                record.scope.projectId == transaction.scope.projectId
            else { throw AuthError.invalid("INVALID_REFRESH_TOKEN") }
            if let tenant = transaction.scope.tenantId, tenant != record.scope.tenantId {
                throw AuthError.invalid("TENANT_ID_MISMATCH: ((Refresh token tenant ID does not match target tenant ID.))")
            }
            // A deleted user, or a new account that reused the id after the token was issued.
            guard var user = try transaction.users.user(localId: record.localId, in: record.scope),
                user.createdAt <= record.issuedAt
            else { throw AuthError.invalid("USER_NOT_FOUND") }
            guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
            if let validSince = user.validSinceSeconds, record.issuedAt.secondsSinceEpoch < validSince {
                throw AuthError.invalid("TOKEN_EXPIRED")
            }
            user.lastRefreshAt = transaction.now
            try transaction.users.save(&user)
            let claims = IDTokenClaims(
                user: user, signInProvider: record.signInProvider, extraClaims: record.extraClaims,
                secondFactor: record.secondFactor, now: transaction.now)
            return (user, claims)
        }
        // Encoded after the commit, outside the writer lock (GrantedTokens).
        let idToken = try request.environment.idTokenSigner.encode(claims)
        return [
            "id_token": .string(idToken), "access_token": .string(idToken),
            "expires_in": .string(String(IDTokenMinter.lifetimeSeconds)), "refresh_token": .string(token),
            "token_type": "Bearer", "user_id": .string(user.localId), "project_id": .string(projectNumber),
        ]
    }
}
