/// A schema step. Steps run in `version` order, each in its own transaction, once per database.
///
/// `sql` may hold several statements. It must not open or close transactions itself, and
/// `PRAGMA foreign_keys` cannot change inside it (SQLite ignores that pragma in a transaction).
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
