internal import CSQLite

/// Brings a database's schema up to the newest `Migration`, recording each applied step in
/// `schema_migrations`, and refuses a database that has steps this build does not know.
struct Migrator {
    /// Sorted by version.
    let migrations: [Migration]

    init(_ migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        precondition(self.migrations.allSatisfy { $0.version > 0 }, "migration versions must be positive")
        precondition(
            Set(migrations.map(\.version)).count == migrations.count, "migration versions must be unique")
    }

    /// Applies the pending steps on `connection` and returns the schema version afterwards.
    func migrate(_ connection: SQLiteConnection) throws -> Int {
        let applied = try connection.transaction(begin: "BEGIN IMMEDIATE") { connection in
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                )
                """)
            return Set(try connection.query("SELECT version FROM schema_migrations").compactMap { $0[0].integer })
        }
        let known = Set(migrations.map { Int64($0.version) })
        let unknown = applied.subtracting(known)
        guard unknown.isEmpty else {
            throw SQLiteError(
                code: SQLITE_ERROR,
                message: "database schema has migration(s) \(unknown.sorted()) that this build does not know "
                    + "(newest known: \(known.max() ?? 0)); it was written by a newer version, refusing to open it",
                sql: nil)
        }
        for migration in migrations where !applied.contains(Int64(migration.version)) {
            try connection.transaction(begin: "BEGIN IMMEDIATE") { connection in
                let version = SQLiteValue.integer(Int64(migration.version))
                // Another process may have applied it since we looked.
                guard try connection.queryFirst("SELECT 1 FROM schema_migrations WHERE version = ?", [version]) == nil
                else { return }
                try connection.executeScript(migration.sql)
                try migration.transform?(connection)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", [version, .text(migration.name)])
            }
        }
        return migrations.last?.version ?? 0  // every known step is applied now, and no unknown one
    }
}
