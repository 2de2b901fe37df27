import Testing
import SQLiteStore

@Suite struct MigrationTests {
    let steps = [
        Migration(version: 2, name: "add email", sql: "ALTER TABLE users ADD COLUMN email TEXT;"),
        Migration(
            version: 1, name: "users",
            sql: """
                CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                -- a comment between statements
                CREATE INDEX users_name ON users (name);
                """),
    ]

    @Test func appliesStepsInVersionOrderAndRecordsThem() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: steps)
        #expect(database.schemaVersion == 2)
        let recorded = try database.read { try $0.query("SELECT version, name, applied_at FROM schema_migrations ORDER BY version") }
        #expect(recorded.map { $0["version"] } == [1, 2])
        #expect(recorded.map { $0["name"] } == ["users", "add email"])
        #expect(recorded.allSatisfy { $0["applied_at"].text?.isEmpty == false })
        try database.write { try $0.execute("INSERT INTO users (name, email) VALUES (?, ?)", ["ada", "ada@example.com"]) }
    }

    @Test func noMigrationsMeansVersionZero() throws {
        #expect(try SQLiteDatabase(location: .inMemory, migrations: []).schemaVersion == 0)
    }

    @Test func reopeningAFileAppliesNothingTwiceAndKeepsTheData() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/users.sqlite"
            do {
                let database = try SQLiteDatabase(location: .file(path), migrations: [steps[1]])
                #expect(database.schemaVersion == 1)
                try database.write { try $0.execute("INSERT INTO users (name) VALUES ('ada')") }
            }  // dropped: closed
            do {
                let database = try SQLiteDatabase(location: .file(path), migrations: steps)  // one new step
                #expect(database.schemaVersion == 2)
                try database.write { try $0.execute("UPDATE users SET email = 'ada@example.com'") }
            }
            let database = try SQLiteDatabase(location: .file(path), migrations: steps)  // nothing new
            #expect(database.schemaVersion == 2)
            let (users, versions) = try database.read { connection in
                (try connection.query("SELECT name, email FROM users"),
                 try connection.query("SELECT version FROM schema_migrations ORDER BY version"))
            }
            #expect(users.map(\.values) == [["ada", "ada@example.com"]])
            #expect(versions.map { $0[0] } == [1, 2])
        }
    }

    @Test func refusesADatabaseWithANewerSchemaAndLeavesItAlone() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/newer.sqlite"
            _ = try SQLiteDatabase(location: .file(path), migrations: steps)
            let error = #expect(throws: DatabaseFileError.self) {
                try SQLiteDatabase(location: .file(path), migrations: [steps[1]])
            }
            #expect(error?.problem == .newerSchema(unknownVersions: [2], newestKnown: 1))
            #expect(try SQLiteDatabase(location: .file(path), migrations: steps).schemaVersion == 2)
        }
    }

    @Test func aFailingStepRollsBackAndIsNotRecorded() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/failing.sqlite"
            let broken = Migration(version: 3, name: "broken", sql: "CREATE TABLE half (x); SELECT * FROM missing;")
            let error = #expect(throws: SQLiteError.self) {
                try SQLiteDatabase(location: .file(path), migrations: steps + [broken])
            }
            #expect(error?.sql?.contains("missing") == true)
            let database = try SQLiteDatabase(location: .file(path), migrations: steps)
            #expect(database.schemaVersion == 2)
            let halfExists = try database.read {
                try $0.queryFirst("SELECT 1 FROM sqlite_schema WHERE name = 'half'") != nil
            }
            #expect(!halfExists)
        }
    }

    @Test func aTransformRunsAfterItsSQLInTheSameTransaction() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/transform.sqlite"
            do {
                let database = try SQLiteDatabase(location: .file(path), migrations: steps)
                try database.write { try $0.execute("INSERT INTO users (name) VALUES ('ada'), ('grace')") }
            }
            let upper = Migration(
                version: 3, name: "upper-case names", sql: "ALTER TABLE users ADD COLUMN shout TEXT;",
                transform: { connection in
                    for row in try connection.query("SELECT id, name FROM users") {
                        try connection.execute(
                            "UPDATE users SET shout = ? WHERE id = ?", [.text(row[1].text?.uppercased() ?? ""), row[0]])
                    }
                })
            let database = try SQLiteDatabase(location: .file(path), migrations: steps + [upper])
            #expect(database.schemaVersion == 3)
            let shouted = try database.read { try $0.query("SELECT shout FROM users ORDER BY id").map { $0[0] } }
            #expect(shouted == ["ADA", "GRACE"])
        }
    }

    @Test func aFailingTransformRollsBackItsSQL() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/failing-transform.sqlite"
            let failing = Migration(
                version: 3, name: "fails", sql: "CREATE TABLE half (x);", transform: { _ in throw ExpectedFailure() })
            #expect(throws: ExpectedFailure.self) {
                try SQLiteDatabase(location: .file(path), migrations: steps + [failing])
            }
            let database = try SQLiteDatabase(location: .file(path), migrations: steps)
            #expect(database.schemaVersion == 2)
            let halfExists = try database.read {
                try $0.queryFirst("SELECT 1 FROM sqlite_schema WHERE name = 'half'") != nil
            }
            #expect(!halfExists)
        }
    }
}
