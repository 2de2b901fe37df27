/// A schema step. Steps run in `version` order, each in its own transaction, once per database.
///
/// `sql` may hold several statements. It must not open or close transactions itself, and
/// `PRAGMA foreign_keys` cannot change inside it (SQLite ignores that pragma in a transaction).
/// `transform`, when given, runs after `sql` in the same transaction, for what SQL alone cannot
/// compute (rewriting a column with a function of the application's).
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String
    public let transform: (@Sendable (SQLiteConnection) throws -> Void)?

    public init(
        version: Int, name: String, sql: String, transform: (@Sendable (SQLiteConnection) throws -> Void)? = nil
    ) {
        self.version = version
        self.name = name
        self.sql = sql
        self.transform = transform
    }
}
