@testable import SQLiteStore
import Testing

@Suite struct ConnectionTests {
    @Test func uniqueViolationIsAConstraintViolationAndNamesTheSQLButNotTheArguments() throws {
        let schema = Migration(version: 1, name: "accounts", sql: "CREATE TABLE accounts (email TEXT UNIQUE, secret TEXT)")
        let database = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        let insert = "INSERT INTO accounts VALUES (?, ?)"
        try database.write { try $0.execute(insert, ["a@example.com", "hunter2"]) }
        let error = #expect(throws: SQLiteError.self) {
            try database.write { try $0.execute(insert, ["a@example.com", "hunter2"]) }
        }
        #expect(error?.isConstraintViolation == true)
        #expect(error?.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE: the extended code
        #expect(error?.sql == insert)
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.message.contains("UNIQUE") == true)
    }

    /// SQLite caps an in-memory database at 1 GiB; ours may grow to 1 TiB. The cap is what decides:
    /// past it every write fails as "full" (seen: an outbox of large app mails, in seconds).
    @Test func anInMemoryDatabaseIsNotCappedAtSQLitesDefaultGigabyte() throws {
        let schema = Migration(version: 1, name: "blobs", sql: "CREATE TABLE blobs (data BLOB)")
        let database = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        #expect(try database.write { $0.memoryDatabaseSizeLimit() } == SQLiteDatabase.memoryDatabaseLimitBytes)
        try database.write { _ = $0.memoryDatabaseSizeLimit(1 << 20) }
        let error = #expect(throws: SQLiteError.self) {
            try database.write { try $0.execute("INSERT INTO blobs VALUES (zeroblob(2000000))") }
        }
        #expect(error?.code == 13)  // SQLITE_FULL
        #expect(try database.write { $0.memoryDatabaseSizeLimit() } == 1 << 20)
    }

    @Test func aFailedStatementInsideAWriteLeavesTheRestOfTheTransaction() throws {
        let schema = Migration(version: 1, name: "names", sql: "CREATE TABLE names (name TEXT PRIMARY KEY)")
        let database = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        try database.write { connection in
            try connection.execute("INSERT INTO names VALUES ('a')")
            #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO names VALUES ('a')") }
            try connection.execute("INSERT INTO names VALUES ('b')")
        }
        #expect(try database.read { try $0.query("SELECT name FROM names ORDER BY name") }.map { $0[0] } == ["a", "b"])
    }

    @Test(arguments: Storage.allCases)
    func foreignKeysAreEnforcedAndCascade(_ storage: Storage) throws {
        let schema = Migration(
            version: 1, name: "users and sessions",
            sql: """
                CREATE TABLE users (id INTEGER PRIMARY KEY);
                CREATE TABLE sessions (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE);
                """)
        try withDatabase(storage, migrations: [schema]) { database in
            let error = #expect(throws: SQLiteError.self) {
                try database.write { try $0.execute("INSERT INTO sessions (user_id) VALUES (42)") }
            }
            #expect(error?.isConstraintViolation == true)
            try database.write { connection in
                try connection.execute("INSERT INTO users (id) VALUES (1), (2)")
                try connection.execute("INSERT INTO sessions (user_id) VALUES (1), (1), (2)")
                try connection.execute("DELETE FROM users WHERE id = 1")
                #expect(connection.changes == 1)
            }
            let remaining = try database.read { try $0.query("SELECT user_id FROM sessions") }
            #expect(remaining.map { $0[0] } == [2])
        }
    }

    @Test func theStatementCacheReusesOnePreparedStatement() throws {
        let schema = Migration(version: 1, name: "numbers", sql: "CREATE TABLE numbers (n INTEGER PRIMARY KEY)")
        let database = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        try database.write { connection in
            for n in 0..<1000 { try connection.execute("INSERT INTO numbers VALUES (?)", [.integer(Int64(n))]) }
        }
        try database.read { connection in
            let before = connection.cachedStatementCount
            for n in 0..<1000 {
                let row = try connection.queryFirst("SELECT n * 2 AS doubled FROM numbers WHERE n = ?", [.integer(Int64(n))])
                #expect(row?["doubled"] == .integer(Int64(n * 2)))
            }
            #expect(connection.cachedStatementCount == before + 1)
        }
    }

    @Test func changesCountsRowsOfTheLastExecute() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: [counterSchema])
        try database.write { connection in
            try connection.execute("UPDATE counter SET value = 1 WHERE id = ?", [1])
            #expect(connection.changes == 1)
            try connection.execute("UPDATE counter SET value = 1 WHERE id = ?", [99])
            #expect(connection.changes == 0)
        }
    }

    @Test func lastInsertRowidIsTheRowTheLastInsertAdded() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: [counterSchema])
        try database.write { connection in
            try connection.execute("INSERT INTO counter (id, value) VALUES (?, ?)", [41, 0])
            #expect(connection.lastInsertRowid == 41)
            try connection.execute("INSERT INTO counter (value) VALUES (?)", [0])
            let newest = try connection.queryFirst("SELECT max(id) FROM counter")?[0].integer
            #expect(connection.lastInsertRowid == newest)
            #expect(connection.lastInsertRowid == 42)
            // Other statements leave it as it was.
            try connection.execute("UPDATE counter SET value = 2 WHERE id = ?", [41])
            #expect(connection.lastInsertRowid == 42)
        }
    }

    @Test func misusesAreReportedAsErrors() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: [])
        try database.write { connection in
            let several = #expect(throws: SQLiteError.self) { try connection.execute("SELECT 1; SELECT 2") }
            #expect(several?.message.contains("one statement") == true)
            try connection.execute("SELECT 1; -- a trailing comment is fine")
            let arity = #expect(throws: SQLiteError.self) { try connection.execute("SELECT ?", [1, 2]) }
            #expect(arity?.code == 25)  // SQLITE_RANGE
            let syntax = #expect(throws: SQLiteError.self) { try connection.query("SELEC 1") }
            #expect(syntax?.sql == "SELEC 1")
            #expect(throws: SQLiteError.self) { try connection.execute("   ") }
            #expect(try connection.queryFirst("SELECT ?", [1])?[0] == 1)  // still usable
        }
    }

    @Test func openingAnImpossiblePathFailsClearly() {
        let error = #expect(throws: DatabaseFileError.self) {
            try SQLiteDatabase(location: .file("/nonexistent-directory/x.sqlite"), migrations: [])
        }
        #expect(error?.description == "/nonexistent-directory/x.sqlite: the folder /nonexistent-directory does not exist")
    }
}
