import JOSE
import JSON

/// The fake providers' signing keys, cached in memory after the first read of the store.
///
/// Keys are made lazily, outside any transaction (an RSA key takes about 0.3 s here, and in memory
/// every reader waits on the writer), then inserted with `ON CONFLICT DO NOTHING`: when two requests
/// race to make a provider's first key, the store keeps one and both use it.
public final class ProviderKeyring: Sendable {
    /// A key as the JWKS publishes it.
    struct PublishedKey: Sendable {
        let kid: String
        let providerId: String
        /// Kept for retired keys too: Game Center publishes each key as a certificate the key
        /// signs itself, and a certificate must outlive a rotation as a JWK does.
        let signingKey: SigningKey
        let createdAt: Instant

        var key: VerificationKey { signingKey.publicKey }
    }

    /// The key new tokens of one provider and algorithm are signed with.
    struct ActiveKey: Sendable {
        let kid: String
        let key: SigningKey
    }

    private struct Cache {
        var published: [String: PublishedKey] = [:]
        var active: [String: ActiveKey] = [:]
        var isLoaded = false
    }

    private let store: AuthStore
    private let makeKey: KeyFactory
    private let limits: FakeProviderLimits
    private let cache = Locked(Cache())

    init(store: AuthStore, makeKey: @escaping KeyFactory = ProviderKeyring.freshKey, limits: FakeProviderLimits = FakeProviderLimits()) {
        self.store = store
        self.makeKey = makeKey
        self.limits = limits
    }

    /// Where new signing keys come from. Tests hand out pre-made keys, since each RSA key costs
    /// about 0.3 s to generate.
    public typealias KeyFactory = @Sendable (JWSAlgorithm) throws -> SigningKey

    @Sendable public static func freshKey(_ algorithm: JWSAlgorithm) throws -> SigningKey {
        try algorithm == .rs256 ? SigningKey.generateRSA() : SigningKey.generateP256()
    }

    /// The published key with this `kid`, of whichever provider.
    func publishedKey(kid: String) throws -> PublishedKey? {
        try loaded().published[kid]
    }

    /// Every key `providerId` has published, oldest first.
    func publishedKeys(of providerId: String) throws -> [PublishedKey] {
        try loaded().published.values.filter { $0.providerId == providerId }
            .sorted { ($0.createdAt, $0.kid) < ($1.createdAt, $1.kid) }
    }

    /// The key that signs `providerId`'s new tokens with `algorithm`, made on first use.
    func activeKey(of providerId: String, algorithm: JWSAlgorithm, now: Instant) throws -> ActiveKey {
        if let active = try loaded().active[Self.slot(providerId, algorithm)] { return active }
        try refuseBeyondProviderCap(providerId)
        let candidate = try generate(algorithm)
        try store.write { try $0.fakeProviders.insertKey(candidate, providerId: providerId, now: now, retiringActive: false, limits: limits) }
        try reload()
        guard let active = try loaded().active[Self.slot(providerId, algorithm)] else {
            throw AuthError.internal("INTERNAL_ERROR")
        }
        return active
    }

    /// Replaces the active key with a new one; the old one stays published. Answers the new `kid`.
    func rotate(_ providerId: String, algorithm: JWSAlgorithm, now: Instant) throws -> String {
        try refuseBeyondProviderCap(providerId)
        let replacement = try generate(algorithm)
        try store.write { try $0.fakeProviders.insertKey(replacement, providerId: providerId, now: now, retiringActive: true, limits: limits) }
        try reload()
        return replacement.kid
    }

    /// Fails before the costly key generation when a new provider id would pass the cap; the
    /// insert checks again in its transaction, against concurrent first uses.
    private func refuseBeyondProviderCap(_ providerId: String) throws {
        let cached = try loaded()
        guard !cached.published.values.contains(where: { $0.providerId == providerId }) else { return }
        let providers = Set(cached.published.values.map(\.providerId))
        if providers.count >= limits.providers { throw FakeProviderLimits.tooManyProviders(limits.providers) }
    }

    private func loaded() throws -> Cache {
        let cached = cache.withLock { $0 }
        if cached.isLoaded { return cached }
        try reload()
        return cache.withLock { $0 }
    }

    /// Reads every key from the store: a handful of rows, read after each key change only.
    private func reload() throws {
        let rows = try store.read { try $0.fakeProviders.keys() }
        var fresh = Cache(isLoaded: true)
        for row in rows {
            let key = try SigningKey(privateKeyPEM: row.privateKeyPEM)
            fresh.published[row.kid] = PublishedKey(
                kid: row.kid, providerId: row.providerId, signingKey: key, createdAt: row.createdAt)
            if !row.isRetired {
                fresh.active[Self.slot(row.providerId, key.algorithm)] = ActiveKey(kid: row.kid, key: key)
            }
        }
        cache.withLock { $0 = fresh }
    }

    private static func slot(_ providerId: String, _ algorithm: JWSAlgorithm) -> String {
        "\(providerId) \(algorithm.rawValue)"
    }

    struct GeneratedKey {
        let kid: String
        let key: SigningKey
    }

    private func generate(_ algorithm: JWSAlgorithm) throws -> GeneratedKey {
        let key = try makeKey(algorithm)
        return GeneratedKey(kid: Self.keyID(of: key.publicKey), key: key)
    }

    /// The RFC 7638 thumbprint, shortened: derived from the key, so a regenerated key can never
    /// silently reuse an old `kid`.
    static func keyID(of key: VerificationKey) -> String {
        let jwk = key.jwk(keyID: "")
        let members = jwk["kty"]?.stringValue == "EC" ? ["crv", "kty", "x", "y"] : ["e", "kty", "n"]
        var canonical = JSONObject()
        for name in members { canonical[name] = jwk[name] }
        return String(Base64URL.encode(SHA256.hash(canonical.encoded())).prefix(16))
    }
}
