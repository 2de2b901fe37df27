import JOSE
import JSON

/// Builds Firebase ID tokens. They are unsigned (`alg: none`, empty signature) because the Node
/// Admin SDK in emulator mode accepts nothing else (reference admin-sdk-wire §1).
enum IDTokenMinter {
    static let lifetimeSeconds: Int64 = 3600

    /// Claims in the reference emulator's order: profile, custom claims, extra claims, then the
    /// reserved claims that neither can override.
    static func payload(
        for user: UserRecord, signInProvider: String, extraClaims: JSONObject?, secondFactor: JSONObject?, now: Instant,
        signInAttributes: JSONValue? = nil
    ) -> JSONObject {
        var claims = JSONObject()
        claims.setIfPresent("name", user.displayName.map { .string($0) })
        claims.setIfPresent("picture", user.photoUrl.map { .string($0) })
        if let custom = user.customAttributes.flatMap({ try? JSONValue(parsing: $0).objectValue }) {
            claims.merge(custom)
        }
        if let extraClaims { claims.merge(extraClaims) }
        claims.setIfPresent("email", user.email.map { .string($0) })
        claims.setIfPresent("email_verified", user.emailVerified.map { .bool($0) })
        claims.setIfPresent("phone_number", user.phoneNumber.map { .string($0) })
        if signInProvider == SignInProvider.anonymous { claims["provider_id"] = "anonymous" }
        let authTime = (user.lastLoginAt ?? user.lastRefreshAt ?? now).secondsSinceEpoch
        claims["auth_time"] = .int(authTime)
        claims["user_id"] = .string(user.localId)

        var firebase: JSONObject = ["identities": .object(identities(of: user)), "sign_in_provider": .string(signInProvider)]
        if let secondFactor {
            firebase.setIfPresent("sign_in_second_factor", secondFactor["provider"])
            firebase.setIfPresent("second_factor_identifier", secondFactor["identifier"])
        }
        firebase.setIfPresent("tenant", user.scope.tenantId.map { .string($0) })
        firebase.setIfPresent("sign_in_attributes", signInAttributes)
        claims["firebase"] = .object(firebase)

        claims["iat"] = .int(now.secondsSinceEpoch)
        claims["exp"] = .int(now.secondsSinceEpoch + lifetimeSeconds)
        claims["aud"] = .string(user.scope.projectId)
        claims["iss"] = .string("https://securetoken.google.com/\(user.scope.projectId)")
        claims["sub"] = .string(user.localId)
        return claims
    }

    /// `firebase.identities`: the email, then every linked identity but `password`.
    static func identities(of user: UserRecord) -> JSONObject {
        var identities = JSONObject()
        if let email = user.email { identities["email"] = [.string(email)] }
        // `providerUserInfo` but its derived `password` entry, without building the entries.
        for link in user.providers where link.providerId != SignInProvider.password {
            identities[link.providerId] = [.string(link.rawId)]
        }
        if let phoneNumber = user.phoneNumber { identities["phone"] = [.string(phoneNumber)] }
        return identities
    }
}

/// The `sign_in_provider` values Firebase uses besides IdP ids.
enum SignInProvider {
    static let password = "password"
    static let anonymous = "anonymous"
    static let custom = "custom"
    static let phone = "phone"
}

/// Tokens a transaction granted, the ID token not encoded yet: its claims are read from the user
/// inside the transaction, and the encoding (with `--id-tokens signed`, an RSA signature) is done
/// after the commit, outside the writer lock, which every other write waits for.
struct GrantedTokens {
    let claims: JSONObject
    let refreshToken: String
}

/// What a write that may sign a user in answers: its fields, and the tokens to add once encoded
/// (`OperationRequest.writeGrantingTokens`). No tokens when the sign-in stops short (a second
/// factor pending, an account to confirm, an admin creating an account).
struct TokenAnswer {
    var fields: JSONObject
    var tokens: GrantedTokens?
    /// The MFA routes answer the two tokens alone, without `expiresIn`.
    var includesExpiry = true

    /// `expiresIn` is a string: the Apple SDK ignores a number and then refreshes in a loop.
    func encoded(with signer: IDTokenSigner) throws -> JSONObject {
        guard let tokens else { return fields }
        var answer = fields
        answer["idToken"] = .string(try signer.encode(tokens.claims))
        answer["refreshToken"] = .string(tokens.refreshToken)
        if includesExpiry { answer["expiresIn"] = .string(String(IDTokenMinter.lifetimeSeconds)) }
        return answer
    }
}

extension OperationRequest {
    /// `write`, then the granted ID token encoded after the commit.
    func writeGrantingTokens(_ body: (AccountsTransaction) throws -> TokenAnswer) throws -> JSONObject {
        try write(body).encoded(with: environment.idTokenSigner)
    }
}

extension AccountsTransaction {
    /// Saves `user` with a fresh `lastRefreshAt` and grants an ID token and a stored refresh token.
    /// `signInAttributes` (SAML) go into this ID token only, as in the reference: refreshed ones lack them.
    func saveGrantingTokens(
        for user: inout UserRecord, signInProvider: String, extraClaims: JSONObject? = nil,
        secondFactor: JSONObject? = nil, signInAttributes: JSONValue? = nil
    ) throws -> GrantedTokens {
        user.lastRefreshAt = now
        try users.save(&user)
        let logger = environment.logger
        if logger.minimumLevel <= .info {
            // Who signed in with what, once it is durable; never the tokens themselves.
            let who = user.email ?? user.phoneNumber ?? "no email"
            let factor = secondFactor?["provider"]?.stringValue.map { " + \($0) second factor" } ?? ""
            let line = "signed in \(user.localId) (\(who)) with \(signInProvider)\(factor)"
            store.connection.afterCommit { logger.info(line) }
        }
        var refreshToken = RefreshTokenRecord(
            token: "", scope: user.scope, localId: user.localId,
            signInProvider: signInProvider, extraClaims: extraClaims.flatMap { $0.isEmpty ? nil : $0 },
            secondFactor: secondFactor, issuedAt: now)
        refreshToken.token = RefreshTokenFormat.encode(refreshToken, tokenId: identifiers.opaqueToken(bytes: 32))
        try store.refreshTokens.insert(refreshToken)
        let claims = IDTokenMinter.payload(
            for: user, signInProvider: signInProvider, extraClaims: extraClaims, secondFactor: secondFactor, now: now,
            signInAttributes: signInAttributes)
        return GrantedTokens(claims: claims, refreshToken: refreshToken.token)
    }
}
