/// What every operation shares: the store, the clock, identifiers, the fake providers' keys and the log.
/// A class, not a struct: every operation request and transaction holds it, and a copy of a
/// dozen fields each time was a measurable share of retain and release.
public final class AuthEnvironment: Sendable {
    public let store: AuthStore
    public let clock: EmulatorClock
    public let identifiers: any IdentifierSource
    public let logger: Logger
    /// The project every API key and `Bearer owner` maps to.
    public let defaultProjectId: String
    /// Whether unsigned and foreign provider tokens are accepted (DESIGN §2.1).
    public let idpTokenMode: IdPTokenMode
    /// `host:port` for links when a request names no `Host`.
    public let defaultHost: String
    let keyring: ProviderKeyring
    let idTokenSigner: IDTokenSigner
    let decodedIDTokens: DecodedIDTokenCache
    let providerAudiences = ProviderSettingsCache()
    let outboxWaiters = OutboxWaiters()
    let longReads = LongReads()
    let projectConfigs = ProjectConfigCache()
    let tenantConfigs = TenantConfigCache()

    public init(
        store: AuthStore, clock: EmulatorClock, identifiers: any IdentifierSource = SecureIdentifierSource(),
        logger: Logger, defaultProjectId: String, idpTokenMode: IdPTokenMode = .lenient,
        defaultHost: String = "127.0.0.1:9099", idTokenMode: IDTokenMode = .unsigned,
        makeProviderKey: @escaping ProviderKeyring.KeyFactory = ProviderKeyring.freshKey,
        fakeProviderLimits: FakeProviderLimits = FakeProviderLimits()
    ) throws {
        self.store = store
        self.clock = clock
        self.identifiers = identifiers
        self.logger = logger
        self.defaultProjectId = defaultProjectId
        self.idpTokenMode = idpTokenMode
        self.defaultHost = defaultHost
        keyring = ProviderKeyring(store: store, makeKey: makeProviderKey, limits: fakeProviderLimits)
        idTokenSigner = try IDTokenSigner(mode: idTokenMode, keyring: keyring, now: clock.now())
        decodedIDTokens = DecodedIDTokenCache(signer: idTokenSigner)
    }
}

/// `--idp-tokens`: how signInWithIdp treats provider tokens it cannot verify.
public enum IdPTokenMode: String, Sendable, Equatable {
    /// Unsigned tokens and tokens signed by keys we do not hold are accepted with a warning, as
    /// the official emulator accepts everything.
    case lenient
    /// Only tokens our fake providers signed are accepted.
    case strict
}
