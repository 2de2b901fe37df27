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
    /// Whether the emulator's own key signed it; nil when it names no key of ours.
    let signedByUs: Bool?
    /// The claims `authenticate` reads, looked up here, once per token text (decoded tokens are
    /// cached), rather than in the payload's members on every request: ~1k instructions of a
    /// lookup (callgrind).
    let claims: AuthenticationClaims

    init?(_ raw: String, signer: IDTokenSigner) {
        guard let jwt = try? CompactJWT(parsing: raw) else { return nil }
        self.raw = raw
        self.jwt = jwt
        signedByUs = signer.verifies(jwt)
        claims = AuthenticationClaims(jwt)
    }

    /// `firebase.tenant`, read without any checks.
    var tenant: String? { claims.tenant }
}

/// What `authenticate` reads of a token, as it stands in the token (no checks made).
struct AuthenticationClaims: Sendable {
    /// Whether `firebase` is an object (a token without one is refused).
    let hasFirebaseObject: Bool
    /// `firebase.tenant`, `firebase.sign_in_provider`, `user_id` and `iat`.
    let tenant: String?
    let signInProvider: String?
    let userId: String?
    let issuedAt: Int64?
    /// The header's `alg` is `none`.
    let isUnsigned: Bool

    init(_ jwt: CompactJWT) {
        let firebase = jwt.payload["firebase"]?.objectValue
        hasFirebaseObject = firebase != nil
        tenant = firebase?["tenant"]?.stringValue
        signInProvider = firebase?["sign_in_provider"]?.stringValue
        userId = jwt.payload["user_id"]?.stringValue
        issuedAt = jwt.payload["iat"]?.int64Value
        isUnsigned = jwt.algorithm == "none"
    }
}

/// The ID tokens decoded lately, by their exact text. A client sends the same token with every
/// call for its hour, and decoding it (base64, JSON, and with `--id-tokens signed` an RSA check)
/// was a fifth of a lookup. Only what the text alone decides is kept: the user, `validSince` and
/// `disabled` are still read from the store on every request. Direct-mapped, so it stays small
/// (at most `slotCount` tokens) and a miss costs one decode, as before.
final class DecodedIDTokenCache: Sendable {
    static let slotCount = 256
    private let signer: IDTokenSigner
    private let slots = Locked<[DecodedIDToken?]>(Array(repeating: nil, count: slotCount))

    init(signer: IDTokenSigner) { self.signer = signer }

    func decode(_ raw: String) -> DecodedIDToken? {
        let slot = Int(Self.slotHash(raw) % UInt64(Self.slotCount))
        if let hit = slots.withLock({ $0[slot] }), hit.raw == raw { return hit }
        guard let decoded = DecodedIDToken(raw, signer: signer) else { return nil }
        slots.withLock { $0[slot] = decoded }
        return decoded
    }

    /// Which slot a token text goes to: a multiply-xorshift hash of its UTF-8, eight bytes at a
    /// time. `hashValue` (SipHash, through the hasher's byte buffer) cost ~2.9k instructions of a
    /// lookup for a 900-byte token; this ~0.9k (callgrind). A slot is only a place to look (a hit
    /// compares the whole text), so tokens made to collide can cost misses, a decode each, as
    /// without the cache, and no more.
    static func slotHash(_ raw: String) -> UInt64 {
        var raw = raw
        return raw.withUTF8 { bytes in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
            func mix(_ word: UInt64) {
                hash = ((hash ^ word) &* 0xFF51_AFD7_ED55_8CCD)
                hash ^= hash >> 32
            }
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while raw.count - offset >= 8 {
                mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            for byte in raw[offset...].reversed() { tail = tail << 8 | UInt64(byte) }
            mix(tail)
            return hash ^ hash >> 29
        }
    }
}

extension AccountsTransaction {
    /// Checks an incoming ID token the way the reference emulator does (§7.2): it must decode,
    /// name an existing user of this scope, not be older than the user's `validSince`, and the user
    /// must be enabled. Signatures and `exp` are not checked (tokens from the emulator are unsigned).
    func authenticate(idToken: String) throws -> AuthenticatedIDToken {
        let (user, decoded) = try checkedIDToken(idToken)
        return AuthenticatedIDToken(
            user: user, signInProvider: decoded.claims.signInProvider ?? SignInProvider.password, payload: decoded.jwt.payload)
    }

    /// `authenticate`'s checks, answering the user alone, moved out of a tuple: taking `.user` of
    /// the `AuthenticatedIDToken` copied the whole record (~0.9k instructions a lookup, callgrind).
    func authenticatedUser(idToken: String) throws -> UserRecord {
        let (user, _) = try checkedIDToken(idToken)
        return user
    }

    /// The checks themselves: the user, and the token as decoded.
    private func checkedIDToken(_ idToken: String) throws -> (UserRecord, DecodedIDToken) {
        let decoded = decodedIDToken?.raw == idToken ? decodedIDToken : environment.decodedIDTokens.decode(idToken)
        guard let decoded, decoded.claims.hasFirebaseObject else {
            throw AuthError.invalid("INVALID_ID_TOKEN")
        }
        let claims = decoded.claims
        if decoded.signedByUs == false {
            // Ours, but altered: refuse it rather than trust what it says.
            throw AuthError.invalid("INVALID_ID_TOKEN : The ID token's signature does not verify with the emulator's key.")
        }
        if !claims.isUnsigned, decoded.signedByUs == nil {
            environment.logger.warning(
                "Received a signed JWT. Auth Emulator does not validate JWTs and IS NOT SECURE")
        }
        if let tenant = claims.tenant {
            guard scope.tenantId != nil else {
                throw AuthError.invalid("INVALID_ID_TOKEN : ((Parsed token that belongs to tenant in a non-tenant project.))")
            }
            guard tenant == scope.tenantId else { throw AuthError.invalid("TENANT_ID_MISMATCH") }
        }
        guard let localId = claims.userId, let user = try users.user(localId: localId, in: scope)
        else { throw AuthError.invalid("USER_NOT_FOUND") }
        if let validSince = user.validSinceSeconds, let issuedAt = claims.issuedAt, issuedAt < validSince {
            throw AuthError.invalid("TOKEN_EXPIRED")
        }
        guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
        return (user, decoded)
    }
}
