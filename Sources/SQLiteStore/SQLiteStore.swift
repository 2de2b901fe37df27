// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.

/// The database: WAL, foreign keys on, migrations applied at open. Writes are serialised and
/// each `write` is one transaction that is committed before it returns.
public final class SQLiteDatabase: @unchecked Sendable {
    public enum Location: Sendable, Equatable {
        case inMemory
        case file(String)
    }

    public init(location: Location, migrations: [Migration]) throws {
        fatalError("SQLiteStore is not built yet")
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`); commits when it returns, rolls back
    /// when it throws (and rethrows).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        fatalError("SQLiteStore is not built yet")
    }

    /// Runs `body` in a read transaction that sees one consistent snapshot.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        fatalError("SQLiteStore is not built yet")
    }

    /// The highest migration version applied.
    public var schemaVersion: Int { fatalError("SQLiteStore is not built yet") }
}
