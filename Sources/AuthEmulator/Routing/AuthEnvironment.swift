/// What every operation shares: the store, the clock, identifiers and the log.
public struct AuthEnvironment: Sendable {
    public let store: AuthStore
    public let clock: any Clock
    public let identifiers: any IdentifierSource
    public let logger: Logger
    /// The project every API key and `Bearer owner` maps to.
    public let defaultProjectId: String

    public init(
        store: AuthStore, clock: any Clock, identifiers: any IdentifierSource = SecureIdentifierSource(), logger: Logger,
        defaultProjectId: String
    ) {
        self.store = store
        self.clock = clock
        self.identifiers = identifiers
        self.logger = logger
        self.defaultProjectId = defaultProjectId
    }
}
