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

    /// Users (and refresh tokens) deleted per transaction by `deleteAllUsers`: about 3 ms of the
    /// writer's time each at 1M users, so other requests' writes and reads run between the steps.
    static let deletionStep = 1000

    /// Deletes every user of one project or tenant, and their refresh tokens, in transactions of
    /// `deletionStep` rows. Not atomic: a user written while it runs may be deleted or kept.
    func deleteAllUsers(in scope: UserScope) throws {
        while try write({ try $0.users.deleteSome(in: scope, limit: Self.deletionStep) }) {}
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
