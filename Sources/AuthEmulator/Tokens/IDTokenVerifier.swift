import JOSE
import JSON

/// A Firebase ID token a client sent back, decoded and checked against the stored user.
struct AuthenticatedIDToken {
    var user: UserRecord
    let signInProvider: String
    let payload: JSONObject
}

/// The body's `idToken`, decoded once by the router (which routes by its tenant) and reused by
/// `authenticate`, so a request's token is parsed only once.
struct DecodedIDToken: Sendable {
    let raw: String
    let jwt: CompactJWT

    init?(_ raw: String) {
        guard let jwt = try? CompactJWT(parsing: raw) else { return nil }
        self.raw = raw
        self.jwt = jwt
    }

    /// `firebase.tenant`, read without any checks.
    var tenant: String? { jwt.payload["firebase"]?["tenant"]?.stringValue }
}

extension AccountsTransaction {
    /// Checks an incoming ID token the way the reference emulator does (§7.2): it must decode,
    /// name an existing user of this scope, not be older than the user's `validSince`, and the user
    /// must be enabled. Signatures and `exp` are not checked (tokens from the emulator are unsigned).
    func authenticate(idToken: String) throws -> AuthenticatedIDToken {
        let decoded = decodedIDToken?.raw == idToken ? decodedIDToken : DecodedIDToken(idToken)
        guard let token = decoded?.jwt, let firebase = token.payload["firebase"]?.objectValue else {
            throw AuthError.invalid("INVALID_ID_TOKEN")
        }
        if environment.idTokenSigner.verifies(token) == false {
            // Ours, but altered: refuse it rather than trust what it says.
            throw AuthError.invalid("INVALID_ID_TOKEN : The ID token's signature does not verify with the emulator's key.")
        }
        if token.algorithm != "none", environment.idTokenSigner.verifies(token) == nil {
            environment.logger.warning(
                "Received a signed JWT. Auth Emulator does not validate JWTs and IS NOT SECURE")
        }
        if let tenant = firebase["tenant"]?.stringValue {
            guard scope.tenantId != nil else {
                throw AuthError.invalid("INVALID_ID_TOKEN : ((Parsed token that belongs to tenant in a non-tenant project.))")
            }
            guard tenant == scope.tenantId else { throw AuthError.invalid("TENANT_ID_MISMATCH") }
        }
        guard let localId = token.payload["user_id"]?.stringValue, let user = try users.user(localId: localId, in: scope)
        else { throw AuthError.invalid("USER_NOT_FOUND") }
        if let validSince = user.validSinceSeconds, let issuedAt = token.payload["iat"]?.int64Value, issuedAt < validSince {
            throw AuthError.invalid("TOKEN_EXPIRED")
        }
        guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
        return AuthenticatedIDToken(
            user: user, signInProvider: firebase["sign_in_provider"]?.stringValue ?? SignInProvider.password,
            payload: token.payload)
    }
}
