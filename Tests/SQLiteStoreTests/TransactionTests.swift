import Foundation
import SQLiteStore
import Synchronization
import Testing

@Suite struct TransactionTests {
    let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (name TEXT PRIMARY KEY);")

    @Test(arguments: Storage.allCases)
    func writeCommitsAndReturnsTheBodysValue(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [schema]) { database in
            let changes = try database.write { connection in
                try connection.execute("INSERT INTO items VALUES ('a'), ('b')")
                return connection.changes
            }
            #expect(changes == 2)
            #expect(try database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0] } == 2)
        }
    }

    @Test(arguments: Storage.allCases)
    func aThrowingWriteRollsBackEverythingAndRethrowsTheSameError(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [schema]) { database in
            #expect(throws: ExpectedFailure()) {
                try database.write { connection in
                    try connection.execute("INSERT INTO items VALUES ('a')")
                    try connection.execute("INSERT INTO items VALUES ('b')")
                    throw ExpectedFailure()
                }
            }
            #expect(try database.read { try $0.query("SELECT * FROM items") }.isEmpty)
            // The connection is usable afterwards: no transaction was left open.
            try database.write { try $0.execute("INSERT INTO items VALUES ('c')") }
            #expect(try database.read { try $0.query("SELECT name FROM items") }.map { $0[0] } == ["c"])
        }
    }

    @Test(arguments: Storage.allCases)
    func afterCommitHooksRunOnceCommittedWithTheLockReleasedAndNeverOnRollback(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [schema]) { database in
            let seen = Mutex<[String]>([])
            try database.write { connection in
                try connection.execute("INSERT INTO items VALUES ('a')")
                connection.afterCommit {
                    // Committed, and the store is free again: a hook may read it.
                    let count = try? database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0].integer }
                    seen.withLock { $0.append("first saw \(count.flatMap { $0 } ?? -1)") }
                }
                connection.afterCommit { seen.withLock { $0.append("second") } }
                #expect(seen.withLock { $0.isEmpty })
            }
            #expect(seen.withLock { $0 } == ["first saw 1", "second"])
            #expect(throws: ExpectedFailure()) {
                try database.write { connection in
                    connection.afterCommit { seen.withLock { $0.append("rolled back") } }
                    throw ExpectedFailure()
                }
            }
            try database.write { try $0.execute("INSERT INTO items VALUES ('b')") }
            #expect(seen.withLock { $0 } == ["first saw 1", "second"])
        }
    }

    @Test(arguments: Storage.allCases)
    func writingInsideReadFails(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [schema]) { database in
            let error = #expect(throws: SQLiteError.self) {
                try database.read { try $0.execute("INSERT INTO items VALUES ('a')") }
            }
            #expect(error?.code == 8)  // SQLITE_READONLY
            try database.write { try $0.execute("INSERT INTO items VALUES ('b')") }  // write still works after
        }
    }

    @Test func fileDatabasesUseWALNormalSyncAndForeignKeys() throws {
        try withDatabase(.file) { database in
            let (mode, synchronous, foreignKeys) = try database.write { connection in
                (try connection.queryFirst("PRAGMA journal_mode")?[0],
                 try connection.queryFirst("PRAGMA synchronous")?[0],
                 try connection.queryFirst("PRAGMA foreign_keys")?[0])
            }
            #expect(mode == "wal")
            #expect(synchronous == 1)  // NORMAL: `write` syncs the WAL itself (GroupCommit)
            #expect(foreignKeys == 1)
            #expect(try database.read { try $0.queryFirst("PRAGMA journal_mode")?[0] } == "wal")
        }
    }

    @Test func aCommittedWriteSurvivesTheProcessDying() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("crash.sqlite").path
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (name TEXT PRIMARY KEY);")
            let database = try SQLiteDatabase(location: .file(path), migrations: [schema])
            try database.write { try $0.execute("INSERT INTO items VALUES ('answered')") }
            kill(getpid(), SIGKILL)  // no close, no checkpoint: the row lives only in the WAL
        }
        let database = try SQLiteDatabase(location: .file(path), migrations: [schema])
        #expect(try database.read { try $0.query("SELECT name FROM items") }.map { $0[0] } == ["answered"])
    }

    @Test func inMemoryDatabasesAreIndependent() throws {
        let first = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        let second = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        try first.write { try $0.execute("INSERT INTO items VALUES ('only in first')") }
        #expect(try second.read { try $0.query("SELECT * FROM items") }.isEmpty)
        #expect(try first.read { try $0.query("SELECT * FROM items") }.count == 1)
    }

    /// The nesting guard is a thread-specific slot per database, given back when the database
    /// goes: more databases over a process's life than the system has slots (1024 on Linux) must
    /// work, and a transaction of one database may use another.
    @Test func databasesComeAndGoPastTheThreadSlotLimitAndMayNestAcrossEachOther() throws {
        for _ in 0..<1500 {
            let database = try SQLiteDatabase(location: .inMemory, migrations: [schema])
            try database.write { try $0.execute("INSERT INTO items VALUES ('x')") }
        }
        let outer = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        let inner = try SQLiteDatabase(location: .inMemory, migrations: [schema])
        try outer.write { connection in
            try connection.execute("INSERT INTO items VALUES ('outer')")
            try inner.write { try $0.execute("INSERT INTO items VALUES ('inner')") }
        }
        #expect(try inner.read { try $0.query("SELECT name FROM items") }.map { $0[0] } == ["inner"])
    }

    @Test func nestedReadInsideWriteStopsWithAClearMessage() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let database = try SQLiteDatabase(location: .inMemory, migrations: [])
            try database.write { _ in try database.read { _ in } }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("called inside another read/write"))
    }

    @Test func aConnectionKeptPastItsClosureCannotBeUsed() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let database = try SQLiteDatabase(location: .inMemory, migrations: [])
            let escaped = try database.write { $0 }
            try escaped.execute("SELECT 1")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("used outside the read/write closure"))
    }
}
