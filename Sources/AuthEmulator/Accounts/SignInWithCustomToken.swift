import JOSE
import JSON

/// `accounts:signInWithCustomToken` (v3 `verifyCustomToken`), reference §9.4. Custom tokens from
/// the Admin SDKs in emulator mode are unsigned JWTs (Java's says RS256 but has an empty
/// signature); a plain JSON object string is accepted too, as an emulator-only convenience.
enum SignInWithCustomToken {
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    static func run(_ request: OperationRequest) throws -> JSONObject {
        try request.requireEnabledBeforeFields()
        guard let token = try request.body.nonEmptyString("token") else { throw AuthError.invalid("MISSING_CUSTOM_TOKEN") }
        let payload = try decode(token, request: request)
        guard let localId = identifier(payload["uid"]) ?? identifier(payload["user_id"]) else {
            throw AuthError.invalid("MISSING_IDENTIFIER")
        }
        var extraClaims: JSONObject?
        if let claims = payload["claims"] {
            guard case .object(let object) = claims else { throw AuthError.invalid("INVALID_CLAIMS") }
            try CustomClaims.validate(object)
            extraClaims = object
        }

        return try request.writeGrantingTokens { transaction in
            try transaction.requireEnabled()
            var user: UserRecord
            let existing = try transaction.users.user(localId: localId, in: transaction.scope)
            if let existing {
                guard !existing.disabled else { throw AuthError.invalid("USER_DISABLED") }
                user = existing
            } else {
                user = UserRecord(localId: localId, scope: transaction.scope, createdAt: transaction.now)
            }
            user.customAuth = true
            let response: JSONObject = [
                "kind": "identitytoolkit#VerifyCustomTokenResponse", "isNewUser": .bool(existing == nil),
            ]
            return try transaction.completeFirstFactor(
                &user, signInProvider: SignInProvider.custom, extraClaims: extraClaims, answering: response)
        }
    }

    private static func decode(_ token: String, request: OperationRequest) throws(AuthError) -> JSONObject {
        if token.hasPrefix("{") {
            guard let value = try? JSONValue(parsing: token), case .object(let payload) = value else {
                throw AuthError.invalid(
                    "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            return payload
        }
        let jwt = try? CompactJWT(parsing: token)
        if let tenant = request.scope.tenantId, jwt?.payload["tenant_id"]?.stringValue != tenant {
            throw AuthError.invalid("TENANT_ID_MISMATCH")
        }
        guard let jwt else { throw AuthError.invalid("INVALID_CUSTOM_TOKEN : Invalid assertion format") }
        if jwt.algorithm != "none" {
            request.environment.logger.warning(
                "Received a signed custom token. Auth Emulator does not validate JWTs and IS NOT SECURE")
        }
        let tokenAudience = jwt.payload["aud"]
        guard tokenAudience?.stringValue == audience else {
            let shown = tokenAudience.map { $0.stringValue ?? $0.compactString } ?? "undefined"
            throw AuthError.invalid(
                "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(shown) Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))"
            )
        }
        return jwt.payload
    }

    /// `uid` may be a string, a number or a boolean in hand-made tokens.
    private static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text.isEmpty ? nil : text
        case .int(let number)?: return String(number)
        case .double, .bool: return value?.compactString
        default: return nil
        }
    }
}
