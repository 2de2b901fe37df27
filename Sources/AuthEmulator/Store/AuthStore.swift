import SQLiteStore

/// The emulator's state: one SQLite database, reached only through transactions.
public final class AuthStore: Sendable {
    let database: SQLiteDatabase

    public init(location: SQLiteDatabase.Location) throws {
        database = try SQLiteDatabase(location: location, migrations: Schema.migrations)
    }

    func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try database.write { try body(StoreTransaction(connection: $0)) }
    }

    func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try database.read { try body(StoreTransaction(connection: $0, readOnly: true)) }
    }
}

/// The repositories of one transaction. Not to be kept after the transaction's closure returns.
struct StoreTransaction {
    let users: UserRepository
    let refreshTokens: RefreshTokenRepository
    let projectConfigs: ProjectConfigRepository
    let emulatorState: EmulatorStateRepository
    let fakeProviders: FakeProviderRepository
    let providerConfigs: ProviderConfigRepository
    let oobCodes: OobCodeRepository
    let outbox: OutboxRepository
    let verificationSessions: VerificationSessionRepository
    /// The connection itself, for `afterCommit` hooks.
    let connection: SQLiteConnection

    /// `readOnly` for a read transaction (see `UserRepository.readOnly`).
    init(connection: SQLiteConnection, readOnly: Bool = false) {
        users = UserRepository(connection: connection, readOnly: readOnly)
        refreshTokens = RefreshTokenRepository(connection: connection)
        projectConfigs = ProjectConfigRepository(connection: connection)
        emulatorState = EmulatorStateRepository(connection: connection)
        fakeProviders = FakeProviderRepository(connection: connection)
        providerConfigs = ProviderConfigRepository(connection: connection)
        oobCodes = OobCodeRepository(connection: connection)
        outbox = OutboxRepository(connection: connection)
        verificationSessions = VerificationSessionRepository(connection: connection)
        self.connection = connection
    }
}
