internal import CSQLite

/// Brings a database's schema up to the newest `Migration`, recording each applied step in
/// `schema_migrations`, and refuses a database that has steps this build does not know or that
/// these migrations did not make.
struct Migrator {
    /// Sorted by version.
    let migrations: [Migration]

    init(_ migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        precondition(self.migrations.allSatisfy { $0.version > 0 }, "migration versions must be positive")
        precondition(
            Set(migrations.map(\.version)).count == migrations.count, "migration versions must be unique")
    }

    /// Refuses a database these migrations cannot take, before anything is written to it:
    /// another program's (tables, but no record of these migrations) or a newer build's (steps
    /// recorded that this build does not know). Reads only.
    func checkCanMigrate(_ connection: SQLiteConnection) throws {
        try connection.transaction(begin: "BEGIN DEFERRED", readOnly: true) { connection in
            let tables = try connection.query(
                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            ).compactMap { $0[0].text }
            guard tables.contains("schema_migrations") else {
                if !tables.isEmpty { throw DatabaseFileError.Problem.foreignDatabase(tables: tables) }
                return  // a new database
            }
            let applied: Set<Int64>
            do {
                applied = Set(try connection.query("SELECT version, name FROM schema_migrations").compactMap { $0[0].integer })
            } catch let error as SQLiteError where error.code & 0xFF == SQLITE_ERROR {
                // Another tool's table of the same name (Rails keeps one with a version alone).
                throw DatabaseFileError.Problem.foreignDatabase(tables: tables)
            }
            let known = Set(migrations.map { Int64($0.version) })
            let unknown = applied.subtracting(known)
            guard unknown.isEmpty else {
                throw DatabaseFileError.Problem.newerSchema(
                    unknownVersions: unknown.sorted().map { Int($0) }, newestKnown: migrations.last?.version ?? 0)
            }
        }
    }

    /// Applies the pending steps on `connection` and returns the schema version afterwards. A file
    /// is checked first (`checkCanMigrate`); memory starts empty.
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
        return migrations.last?.version ?? 0  // every known step is applied now
    }
}
