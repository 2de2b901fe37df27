import Foundation
@testable import SQLiteStore
import Testing

/// What a database path holds, and who holds it, decided before SQLite writes anything there.
@Suite struct DatabaseFileTests {
    private static let readWriteCreate: Int32 = 0x2 | 0x4  // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE

    private func problem(opening path: String, migrations: [Migration] = []) -> DatabaseFileError.Problem? {
        let error = #expect(throws: DatabaseFileError.self) { try SQLiteDatabase(location: .file(path), migrations: migrations) }
        #expect(error?.path == path)
        return error?.problem
    }

    private func names(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func aSecondDatabaseOnTheFileIsRefusedWithItsHolderUntilTheFirstIsGone() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/held.sqlite"
            do {
                let first = try SQLiteDatabase(location: .file(path), migrations: [counterSchema])
                #expect(first.holdsFileLock)
                guard case .inUse(let holder) = problem(opening: path, migrations: [counterSchema]) else {
                    Issue.record("a second database on the file was not refused as in use")
                    return
                }
                #expect(holder?.processId == getpid())
                #expect(holder?.started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
                // The first goes on working.
                try first.write { try $0.execute("UPDATE counter SET value = 1") }
            }
            let second = try SQLiteDatabase(location: .file(path), migrations: [counterSchema])
            #expect(try second.read { try $0.queryFirst("SELECT value FROM counter")?[0] } == 1)
            let lockFile = try String(contentsOfFile: DatabaseFileLock.path(of: path), encoding: .utf8)
            #expect(lockFile.hasPrefix("pid \(getpid()) started "))
        }
    }

    @Test func aFolderThatDoesNotExistIsNamed() {
        #expect(problem(opening: "/nonexistent-directory/x.sqlite") == .missingFolder("/nonexistent-directory"))
    }

    @Test func aFolderOrAFileOnThePathIsNamedAndNothingIsWritten() throws {
        try withTemporaryDirectory { directory in
            #expect(problem(opening: directory) == .isAFolder)
            try Data("plain text\n".utf8).write(to: URL(fileURLWithPath: "\(directory)/notes.txt"))
            #expect(problem(opening: "\(directory)/notes.txt") == .notADatabase)
            #expect(problem(opening: "\(directory)/notes.txt/x.sqlite") == .notAFolder("\(directory)/notes.txt"))
            #expect(try names(in: directory) == ["notes.txt"])
            #expect(try String(contentsOfFile: "\(directory)/notes.txt", encoding: .utf8) == "plain text\n")
            // An empty file is a new database, as SQLite takes it.
            #expect(FileManager.default.createFile(atPath: "\(directory)/empty.sqlite", contents: nil))
            #expect(try SQLiteDatabase(location: .file("\(directory)/empty.sqlite"), migrations: [counterSchema]).schemaVersion == 1)
        }
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/shop.sqlite"
            do {
                let connection = try SQLiteConnection.open(path, flags: Self.readWriteCreate)
                try connection.executeScript("CREATE TABLE orders (id INTEGER); CREATE TABLE customers (id INTEGER);")
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(problem(opening: path, migrations: [counterSchema]) == .foreignDatabase(tables: ["customers", "orders"]))
            // Not switched to WAL (which rewrites the header), no table added, no lock file left.
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try names(in: directory) == ["shop.sqlite"])

            // Another tool's table of the same name (a version column alone, as Rails keeps) is not ours either.
            do {
                let connection = try SQLiteConnection.open(path, flags: Self.readWriteCreate)
                try connection.executeScript("CREATE TABLE schema_migrations (version TEXT PRIMARY KEY);")
            }
            #expect(problem(opening: path) == .foreignDatabase(tables: ["customers", "orders", "schema_migrations"]))
        }
    }

    /// Only a lock file the failed start made itself is removed (MigrationTests has the newer schema itself).
    @Test func aLockFileThatWasThereStaysAfterARefusal() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/newer.sqlite"
            let next = Migration(version: 2, name: "next", sql: "CREATE TABLE later (x);")
            _ = try SQLiteDatabase(location: .file(path), migrations: [counterSchema, next])
            #expect(FileManager.default.fileExists(atPath: DatabaseFileLock.path(of: path)))
            _ = problem(opening: path, migrations: [counterSchema])
            #expect(FileManager.default.fileExists(atPath: DatabaseFileLock.path(of: path)))
        }
    }
}
