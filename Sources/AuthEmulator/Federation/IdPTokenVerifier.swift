import JOSE
import JSON

/// The claims of a provider credential, and how much of it was proven.
struct VerifiedIdPClaims: Sendable {
    enum Proof: Sendable, Equatable {
        /// Signed by one of our fake providers' keys and checked in full.
        case signedByFakeProvider(kid: String)
        /// An opaque access token one of our fake providers issued.
        case issuedAccessToken
        /// The official emulator's fake forms (plain JSON claims, `alg: none`) or a token signed by
        /// a key we do not hold: accepted unverified in lenient mode only.
        case unverified
    }

    let claims: JSONObject
    let proof: Proof
}

/// Checks provider credentials as DESIGN §2.1 says: tokens our keys signed are verified in full
/// (signature, `crit`, `iss`, `exp`/`iat` by the emulator clock, `aud` when configured); what we
/// cannot verify passes only in lenient mode; the nonce rule holds in both modes.
struct IdPTokenVerifier {
    /// How far `exp` and `iat` may be off, as production's verifiers allow for clock drift.
    static let allowedSkewSeconds: Int64 = 300

    let profile: ProviderProfile
    let keyring: ProviderKeyring
    let mode: IdPTokenMode
    let now: Instant
    /// The client ids the project configured for this provider; empty means "any audience".
    let allowedAudiences: [String]
    let logger: Logger

    var providerId: String { profile.providerId }

    /// Verifies an `id_token` (or a JSON/JWT `access_token`, which the official emulator reads the
    /// same way). `nil` when the value is neither JSON nor a JWT.
    func verify(token: String, field: String) throws(AuthError) -> VerifiedIdPClaims? {
        if token.hasPrefix("{") {
            guard let value = try? JSONValue(parsing: token), let claims = value.objectValue else {
                throw AuthError.invalid(
                    "INVALID_IDP_RESPONSE : Unable to parse \(field): \(token) ((Auth Emulator failed to parse fake \(field) as strict JSON.))")
            }
            try refuseInStrictMode("The \(field) is plain JSON, not a signed JWT")
            return VerifiedIdPClaims(claims: claims, proof: .unverified)
        }
        guard let jwt = (try? CompactJWT(parsing: token)) ?? (try? Self.withUnreadableSignature(token)) else { return nil }
        if jwt.algorithm == "none" {
            try refuseInStrictMode("The \(field) is not signed (alg \(jwt.algorithm ?? "missing"))")
            return VerifiedIdPClaims(claims: jwt.payload, proof: .unverified)
        }
        guard let kid = jwt.keyID, let published = try? keyring.publishedKey(kid: kid) else {
            let named = jwt.keyID.map { "kid \($0)" } ?? "no kid"
            try refuseInStrictMode(
                "The \(field) is signed with \(named), which is not a key of the emulator's fake \(providerId) provider (see \(ProviderProfile.routePrefix)/\(providerId)/jwks)")
            return VerifiedIdPClaims(claims: jwt.payload, proof: .unverified)
        }
        try checkSignature(jwt, field: field, key: published)
        try checkClaims(jwt.payload, field: field)
        return VerifiedIdPClaims(claims: jwt.payload, proof: .signedByFakeProvider(kid: published.kid))
    }

    private func checkSignature(_ jwt: CompactJWT, field: String, key: ProviderKeyring.PublishedKey) throws(AuthError) {
        guard key.providerId == providerId else {
            throw Self.invalid("The \(field) is signed with key \(key.kid) of the fake \(key.providerId) provider, not of \(providerId)")
        }
        // We understand no JWS extension, so any critical one must be refused (RFC 7515 §4.1.11).
        if let critical = jwt.header["crit"] {
            let names = critical.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? critical.compactString
            throw Self.invalid("The \(field) header lists critical extensions this verifier does not understand (crit: \(names))")
        }
        // The key decides the algorithm; the token's header only has to agree with it.
        guard jwt.algorithm == key.key.algorithm.rawValue else {
            throw Self.invalid(
                "The \(field) header says alg \(jwt.algorithm ?? "missing"), but key \(key.kid) is \(key.key.algorithm.rawValue)")
        }
        guard jwt.verify(with: key.key) else {
            throw Self.invalid("The \(field) signature does not verify with key \(key.kid): the token was altered after signing")
        }
    }

    private func checkClaims(_ claims: JSONObject, field: String) throws(AuthError) {
        guard let issuer = claims["iss"]?.stringValue else {
            throw Self.invalid("The \(field) has no iss; \(providerId) tokens are issued by \(profile.expectedIssuerDescription)")
        }
        guard profile.accepts(issuer: issuer) else {
            throw Self.invalid("The \(field) iss is \(issuer); \(providerId) tokens are issued by \(profile.expectedIssuerDescription)")
        }
        guard let expiry = claims["exp"]?.int64Value else { throw Self.invalid("The \(field) has no numeric exp") }
        let nowSeconds = now.secondsSinceEpoch
        if nowSeconds > expiry + Self.allowedSkewSeconds {
            throw Self.invalid(
                "The \(field) expired at \(Self.time(expiry)); the emulator clock says \(now.rfc3339) (allowed skew \(Self.allowedSkewSeconds) s)")
        }
        if let issuedAt = claims["iat"]?.int64Value, issuedAt > nowSeconds + Self.allowedSkewSeconds {
            throw Self.invalid(
                "The \(field) was issued at \(Self.time(issuedAt)), in the future; the emulator clock says \(now.rfc3339)")
        }
        guard !allowedAudiences.isEmpty else { return }
        let audiences = claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? claims["aud"]?.stringValue.map { [$0] } ?? []
        guard audiences.contains(where: allowedAudiences.contains) else {
            let shown = audiences.isEmpty ? "missing" : audiences.joined(separator: ", ")
            throw Self.invalid(
                "The \(field) aud is \(shown); this project's \(providerId) provider accepts \(allowedAudiences.joined(separator: ", "))")
        }
    }

    private func refuseInStrictMode(_ problem: String) throws(AuthError) {
        guard mode == .lenient else {
            throw Self.invalid("\(problem); the emulator runs with --idp-tokens strict")
        }
        logger.warning("\(problem). Accepted unverified (--idp-tokens lenient); real \(providerId) tokens are signed.")
    }

    /// The nonce rule (both modes): whenever the token or the request has a nonce, the token's must
    /// be the provider's form of the raw one the app sent.
    func checkNonce(claims: JSONObject, rawNonce: String?) throws(AuthError) {
        let claim = claims["nonce"]?.stringValue
        switch (claim, rawNonce) {
        case (nil, nil):
            return
        case (.some, nil):
            throw AuthError.invalid("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        case (nil, .some):
            throw AuthError.invalid(
                "MISSING_OR_INVALID_NONCE : The request sent a nonce, but the \(providerId) id_token carries none.")
        case (.some(let claim), .some(let raw)):
            if claim == profile.nonceClaim(forRawNonce: raw) { return }
            if profile.hashesNonce, claim == raw {
                throw AuthError.invalid(
                    "MISSING_OR_INVALID_NONCE : The request sent the hashed nonce; send the raw nonce, whose SHA-256 the \(providerId) token carries.")
            }
            let form = profile.hashesNonce ? "the SHA-256 of the raw nonce in the request" : "the nonce in the request"
            throw AuthError.invalid("MISSING_OR_INVALID_NONCE : The \(providerId) id_token nonce is not \(form).")
        }
    }

    /// A JWT whose signature segment is not even base64url (the official emulator's tests send
    /// real Google tokens with the signature zeroed out): read with the signature dropped, so it is
    /// judged by its `kid` like any token whose signature we cannot check. Under one of our kids,
    /// the empty signature then fails verification.
    private static func withUnreadableSignature(_ token: String) throws -> CompactJWT {
        guard let lastDot = token.lastIndex(of: ".") else { throw JOSEError("token is not three segments") }
        return try CompactJWT(parsing: String(token[...lastDot]))
    }

    static func invalid(_ detail: String) -> AuthError {
        AuthError.invalid("INVALID_IDP_RESPONSE : \(detail).")
    }

    private static func time(_ seconds: Int64) -> String {
        Instant(millisecondsSinceEpoch: seconds * 1000).rfc3339
    }
}
