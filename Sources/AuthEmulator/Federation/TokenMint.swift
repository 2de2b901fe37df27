import JOSE
import JSON

/// What a caller asks a fake provider to mint (`POST /emulator/v1/idp/{idp}/tokens`, DESIGN §3).
struct MintRequest: Sendable {
    var sub: String?
    var email: String?
    var emailVerified = true
    /// Apple: the token carries a relay address that forwards to `email`.
    var hideEmail = false
    var name: String?
    var picture: String?
    /// The raw nonce; the token carries the provider's form of it.
    var nonce: String?
    /// The nonce claim exactly as the token should carry it (what the Apple flow hands Apple: the
    /// SHA-256 of the raw nonce); the caller keeps the raw nonce for signInWithIdp.
    var hashedNonce: String?
    var audience: String?
    var expiresInSeconds: Int64?
    var algorithm = JWSAlgorithm.rs256
    /// Merged into the claims last, so they win (a test's way to make a wrong `iss` or `exp`).
    var claims = JSONObject()

    init() {}

    init(_ body: RequestBody) throws(AuthError) {
        sub = try body.nonEmptyString("sub")
        email = try body.nonEmptyString("email")
        emailVerified = try body.bool("emailVerified") ?? true
        hideEmail = try body.bool("hideEmail") ?? false
        name = try body.nonEmptyString("name")
        picture = try body.nonEmptyString("picture")
        nonce = try body.nonEmptyString("nonce")
        hashedNonce = try body.nonEmptyString("hashedNonce")
        if nonce != nil, hashedNonce != nil {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : Give nonce (the raw nonce, which the token carries in the provider's form) or hashedNonce (put in the token as given), not both.")
        }
        audience = try body.nonEmptyString("audience")
        if let seconds = try body.int64("expiresInSeconds") {
            guard seconds > 0, seconds <= 86_400 * 366 else {
                throw AuthError.invalid("INVALID_ARGUMENT : expiresInSeconds must be between 1 and 31622400.")
            }
            expiresInSeconds = seconds
        }
        if let name = try body.nonEmptyString("alg") {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw AuthError.invalid("INVALID_ARGUMENT : alg must be RS256 or ES256, not \(name).")
            }
            self.algorithm = algorithm
        }
        claims = try body.nested("claims")?.object ?? JSONObject()
        if let email, !EmailAddress.isValid(email) { throw AuthError.invalid("INVALID_EMAIL") }
    }
}

/// A minted credential, as the mint route answers it.
struct MintedCredential: Sendable {
    let providerId: String
    let idToken: String
    let accessToken: String
    let authorizationCode: String?
    let sub: String
    /// As the token carries it: the relay address when Apple hides the email.
    let email: String?
    let realEmail: String?
    let rawNonce: String?
    /// What the caller may not have meant (a nonce that is already a hash), in the answer's `warnings`.
    var warnings: [String] = []

    /// A `postBody` ready for signInWithIdp, raw as the Apple SDK sends it.
    var postBody: String {
        var body = "providerId=\(providerId)&id_token=\(idToken)"
        if let rawNonce { body += "&nonce=\(rawNonce)" }
        return body
    }

    var json: JSONObject {
        var object: JSONObject = [
            "providerId": .string(providerId), "idToken": .string(idToken), "accessToken": .string(accessToken),
        ]
        object.setIfPresent("authorizationCode", authorizationCode.map { .string($0) })
        object["sub"] = .string(sub)
        object.setIfPresent("email", email.map { .string($0) })
        object.setIfPresent("realEmail", realEmail.map { .string($0) })
        object["postBody"] = .string(postBody)
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map { .string($0) }) }
        return object
    }
}

/// Mints provider tokens: records the provider's user, its relay address, code and access token
/// in one short transaction, then signs outside it.
struct TokenMint {
    let environment: AuthEnvironment
    let profile: ProviderProfile
    /// Where the caller reached the emulator (a generic provider's issuer).
    let origin: String

    static let relayDomain = "privaterelay.appleid.com"

    func mint(_ request: MintRequest) throws -> MintedCredential {
        let now = environment.clock.now()
        // Slow or random work first: the key (made on first use), the codes.
        let signingKey = try environment.keyring.activeKey(of: profile.providerId, algorithm: request.algorithm, now: now)
        let sub = request.sub ?? profile.subject(forEmail: request.email) { SecureRandom.bytes(32) }
        let accessToken = accessTokenPrefix + environment.identifiers.alphanumeric(48)
        let authorizationCode = profile.family == .apple
            ? "c" + Hex.lowercase(SecureRandom.bytes(16)) + ".0.mrzt." + environment.identifiers.alphanumeric(22) : nil
        let proposedRelay = environment.identifiers.alphanumeric(10).lowercased() + "@" + Self.relayDomain
        let audience = request.audience ?? profile.defaultAudience
        let lifetime = request.expiresInSeconds ?? profile.defaultLifetimeSeconds
        let hidesEmail = profile.family == .apple && request.hideEmail && request.email != nil

        let tokenEmail: String? = try environment.store.write { store in
            let providers = store.fakeProviders
            try providers.saveAccount(
                FakeProviderRepository.Account(
                    providerId: profile.providerId, sub: sub, email: request.email, name: request.name,
                    picture: request.picture, hidesEmail: hidesEmail), now: now)
            var tokenEmail = request.email.map(EmailAddress.canonical)
            if hidesEmail, let real = tokenEmail {
                tokenEmail = try providers.relayAddress(
                    sub: sub, audience: audience, forwardTo: real, proposed: proposedRelay, now: now
                ).address
            }
            if let authorizationCode {
                try providers.insertAuthorizationCode(
                    authorizationCode, .init(sub: sub, audience: audience, issuedAt: now))
            }
            var profileClaims: JSONObject = ["sub": .string(sub)]
            profileClaims.setIfPresent("email", tokenEmail.map { .string($0) })
            if tokenEmail != nil { profileClaims["email_verified"] = .bool(request.emailVerified) }
            profileClaims.setIfPresent("name", request.name.map { .string($0) })
            profileClaims.setIfPresent("picture", request.picture.map { .string($0) })
            try providers.insertAccessToken(
                accessToken,
                .init(providerId: profile.providerId, sub: sub, claims: profileClaims, expiresAt: now.adding(seconds: lifetime)))
            return tokenEmail
        }

        var claims = shapedClaims(
            request, sub: sub, email: tokenEmail, audience: audience, accessToken: accessToken,
            authorizationCode: authorizationCode, hidesEmail: hidesEmail, now: now, lifetime: lifetime)
        claims.merge(request.claims)
        let idToken = try CompactJWT.sign(payload: claims, key: signingKey.key, keyID: signingKey.kid)
        return MintedCredential(
            providerId: profile.providerId, idToken: idToken, accessToken: accessToken,
            authorizationCode: authorizationCode, sub: sub, email: tokenEmail,
            realEmail: hidesEmail ? request.email.map(EmailAddress.canonical) : nil, rawNonce: request.nonce,
            warnings: warnings(for: request))
    }

    /// The Apple flow hands Apple the SHA-256 of the nonce, so a tester easily mints with the hash
    /// where the raw nonce belongs: say so rather than let signInWithIdp fail on a double hash.
    private func warnings(for request: MintRequest) -> [String] {
        var warnings: [String] = []
        if let nonce = request.nonce, profile.hashesNonce, Self.looksLikeSHA256Hex(nonce) {
            warnings.append(
                "nonce looks like a SHA-256 hex digest, and \(profile.providerId) tokens carry the SHA-256 of the raw nonce, so it was hashed again: the token's nonce is SHA-256(\(nonce.prefix(8))…). If it is already the hash, mint with hashedNonce instead and send the raw nonce to signInWithIdp.")
        }
        if request.hashedNonce != nil {
            warnings.append(
                "hashedNonce is in the token as given; postBody carries no nonce, so add &nonce=<the raw nonce> before sending it to signInWithIdp.")
        }
        if let meant = ProviderProfile.namedProvider(near: profile.providerId) {
            warnings.append(
                "\(profile.providerId) is not \(meant): it was minted as a generic OIDC provider's token. Mint for \(meant) to get \(meant)'s token shape.")
        }
        return warnings
    }

    static func looksLikeSHA256Hex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }

    private var accessTokenPrefix: String {
        switch profile.family {
        case .facebook: "EAAG"
        case .apple: "a"
        case .google: "gat."
        case .yahoo, .genericOIDC: "at."
        }
    }

    /// The claims each real provider puts in its ID token, in its order.
    private func shapedClaims(
        _ request: MintRequest, sub: String, email: String?, audience: String, accessToken: String,
        authorizationCode: String?, hidesEmail: Bool, now: Instant, lifetime: Int64
    ) -> JSONObject {
        let issuedAt = JSONValue.int(now.secondsSinceEpoch)
        let expiry = JSONValue.int(now.secondsSinceEpoch + lifetime)
        let nonce = (request.hashedNonce ?? request.nonce.map(profile.nonceClaim(forRawNonce:))).map { JSONValue.string($0) }
        let names = NameParts(request.name)
        var claims: JSONObject = ["iss": .string(profile.issuer(origin: origin))]
        switch profile.family {
        case .apple:
            // Apple sends its booleans as strings, and never the name (that comes once, in `user`).
            claims["aud"] = .string(audience)
            claims["exp"] = expiry
            claims["iat"] = issuedAt
            claims["sub"] = .string(sub)
            claims.setIfPresent("nonce", nonce)
            claims.setIfPresent("c_hash", authorizationCode.map { .string(Self.halfHash($0)) })
            if let email {
                claims["email"] = .string(email)
                claims["email_verified"] = .string(request.emailVerified ? "true" : "false")
                claims["is_private_email"] = .string(hidesEmail ? "true" : "false")
            }
            claims["auth_time"] = issuedAt
            claims["nonce_supported"] = true
            claims["real_user_status"] = 2
        case .facebook:
            claims["aud"] = .string(audience)
            claims["sub"] = .string(sub)
            claims["iat"] = issuedAt
            claims["exp"] = expiry
            claims["jti"] = .string(environment.identifiers.alphanumeric(36))
            claims.setIfPresent("nonce", nonce)
            claims.setIfPresent("email", email.map { .string($0) })
            claims.setIfPresent("given_name", names.given.map { .string($0) })
            claims.setIfPresent("family_name", names.family.map { .string($0) })
            claims.setIfPresent("name", request.name.map { .string($0) })
            claims.setIfPresent("picture", request.picture.map { .string($0) })
        case .google, .yahoo, .genericOIDC:
            if profile.family == .google { claims["azp"] = .string(audience) }
            claims["aud"] = .string(audience)
            claims["sub"] = .string(sub)
            if let email {
                claims["email"] = .string(email)
                claims["email_verified"] = .bool(request.emailVerified)
            }
            claims["at_hash"] = .string(Self.halfHash(accessToken))
            claims.setIfPresent("nonce", nonce)
            claims.setIfPresent("name", request.name.map { .string($0) })
            claims.setIfPresent("picture", request.picture.map { .string($0) })
            claims.setIfPresent("given_name", names.given.map { .string($0) })
            claims.setIfPresent("family_name", names.family.map { .string($0) })
            claims["iat"] = issuedAt
            claims["exp"] = expiry
            if profile.family == .yahoo { claims["auth_time"] = issuedAt }
        }
        return claims
    }

    /// OIDC's `at_hash` / `c_hash`: base64url of the left half of the SHA-256.
    static func halfHash(_ value: String) -> String {
        Base64URL.encode(SHA256.hash(Array(value.utf8)).prefix(16))
    }
}

/// A display name split at its first space, as providers fill `given_name` and `family_name`.
struct NameParts: Sendable {
    let given: String?
    let family: String?

    init(given: String?, family: String?) {
        self.given = given
        self.family = family
    }

    init(_ name: String?) {
        guard let name, let space = name.firstIndex(of: " ") else {
            given = name
            family = nil
            return
        }
        given = String(name[..<space])
        family = String(name[name.index(after: space)...])
    }
}
