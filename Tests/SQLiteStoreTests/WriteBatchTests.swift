import Foundation
@testable import SQLiteStore
import Synchronization
import Testing

/// Writes to a file that arrive while a sync runs share one transaction (`WriteBatch`). Each test
/// holds a sync back (`ObservedSync`), so that the writes under test all arrive during it, and
/// looks at the file through a connection of its own, which sees only what was committed.
@Suite struct WriteBatchTests {
    let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY)")

    /// A database whose row 1 is durable and whose next sync is held: `body` gets it once a write
    /// of row 10 has committed alone and is waiting for that held sync (`row10` waits for its end).
    func withSyncHeld(
        batchCapacity: Int = SQLiteDatabase.defaultBatchCapacity,
        _ body: @escaping @Sendable (SQLiteDatabase, ObservedSync, String) throws -> Void
    ) throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/batch.sqlite"
            let observed = ObservedSync(path: path)
            let database = try SQLiteDatabase(location: .file(path), migrations: [schema], batchCapacity: batchCapacity) { log, _ in
                observed.makeSync(walPath: log)
            }
            try database.write { try $0.execute("INSERT INTO items VALUES (1)") }
            observed.holdNextSync()
            try runOnThreads(2) { thread in
                if thread == 0 {
                    try database.write { try $0.execute("INSERT INTO items VALUES (10)") }
                } else {
                    while !observed.isHolding { Thread.sleep(forTimeInterval: 0.001) }
                    try body(database, observed, path)
                }
            }
        }
    }

    /// The rows committed to the file, as a connection of its own sees them.
    static func committedIDs(_ path: String) throws -> Set<Int64> {
        let reader = try SQLiteConnection.open(path, flags: 1)  // SQLITE_OPEN_READONLY
        return try reader.lend(readOnly: true) { connection in
            Set(try connection.query("SELECT id FROM items").compactMap { $0[0].integer })
        }
    }

    /// Waits until `count` reaches `target`, then a little longer, so that the write whose body
    /// counted last has also left the writer lock.
    static func waitUntil(_ count: borrowing Atomic<Int>, reaches target: Int) {
        while count.load(ordering: .acquiring) < target { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.05)
    }

    @Test func writesDuringASyncCommitTogetherAfterItAndAFailingOneUndoesOnlyItsOwnChanges() throws {
        let bodiesRun = Atomic(0)
        let succeeded = Mutex<Set<Int64>>([])
        let failed = Mutex<Set<Int64>>([])
        let hooksRun = Mutex<Set<Int64>>([])
        let seenWhileHeld = Mutex<Set<Int64>?>(nil)
        let durableOnReturn = Mutex<Set<Int64>>([])
        try withSyncHeld { database, observed, path in
            try runOnThreads(4) { thread in
                if thread == 3 {
                    Self.waitUntil(bodiesRun, reaches: 3)
                    let committed = try Self.committedIDs(path)
                    seenWhileHeld.withLock { $0 = committed }
                    observed.releaseHeldSync()
                    return
                }
                let id: Int64 = [20, 30, 1][thread]  // 1 is there already: that insert fails
                do {
                    try database.write { connection in
                        defer { bodiesRun.add(1, ordering: .releasing) }
                        try connection.execute("INSERT INTO items VALUES (?)", [.integer(id)])
                        connection.afterCommit { hooksRun.withLock { _ = $0.insert(id) } }
                    }
                    succeeded.withLock { _ = $0.insert(id) }
                    if observed.isDurable(id) { durableOnReturn.withLock { _ = $0.insert(id) } }
                } catch let error as SQLiteError {
                    #expect(error.code & 0xff == 19)  // SQLITE_CONSTRAINT
                    failed.withLock { _ = $0.insert(id) }
                }
            }
        }
        // While the sync of row 10 was held, the two good writes had run but were not committed.
        #expect(seenWhileHeld.withLock { $0 } == [1, 10])
        #expect(succeeded.withLock { $0 } == [20, 30])
        #expect(failed.withLock { $0 } == [1])
        #expect(hooksRun.withLock { $0 } == [20, 30])
        #expect(durableOnReturn.withLock { $0 } == [20, 30])
    }

    @Test func whenSQLiteEndsTheSharedTransactionEveryWriteInItFails() throws {
        let bodiesRun = Atomic(0)
        let errors = Mutex<[Int64: String]>([:])
        let hooksRun = Atomic(0)
        try withSyncHeld { database, observed, path in
            try runOnThreads(3) { thread in
                if thread == 2 {
                    Self.waitUntil(bodiesRun, reaches: 2)
                    observed.releaseHeldSync()
                    return
                }
                // Row 20 joins first; the write of row 30 then ends the whole transaction, as SQLite
                // does itself after some errors (SQLITE_FULL, SQLITE_NOMEM).
                if thread == 1 { Self.waitUntil(bodiesRun, reaches: 1) }
                let id: Int64 = thread == 0 ? 20 : 30
                do {
                    try database.write { connection in
                        defer { bodiesRun.add(1, ordering: .releasing) }
                        try connection.execute("INSERT INTO items VALUES (?)", [.integer(id)])
                        connection.afterCommit { hooksRun.add(1, ordering: .relaxed) }
                        if id == 30 {
                            try connection.execute("ROLLBACK")
                            throw ExpectedFailure()
                        }
                    }
                    errors.withLock { $0[id] = "none" }
                } catch let error as SQLiteError {
                    errors.withLock { $0[id] = "SQLite \(error.code)" }
                } catch {
                    errors.withLock { $0[id] = "\(error)" }
                }
            }
            #expect(try Self.committedIDs(path) == [1, 10])
            // The database goes on: the next write commits.
            try database.write { try $0.execute("INSERT INTO items VALUES (40)") }
            #expect(try Self.committedIDs(path) == [1, 10, 40])
        }
        #expect(errors.withLock { $0 } == [20: "SQLite 4", 30: "\(ExpectedFailure())"])  // SQLITE_ABORT
        #expect(hooksRun.load(ordering: .relaxed) == 0)
    }

    @Test func aFullBatchCommitsWithoutWaitingForTheSync() throws {
        let bodiesRun = Atomic(0)
        let seenWhileHeld = Mutex<Set<Int64>?>(nil)
        try withSyncHeld(batchCapacity: 2) { database, observed, path in
            try runOnThreads(6) { thread in
                if thread == 5 {
                    Self.waitUntil(bodiesRun, reaches: 5)
                    let committed = try Self.committedIDs(path)
                    seenWhileHeld.withLock { $0 = committed }
                    observed.releaseHeldSync()
                    return
                }
                try database.write { connection in
                    defer { bodiesRun.add(1, ordering: .releasing) }
                    try connection.execute("INSERT INTO items VALUES (?)", [.integer(Int64(20 + thread))])
                }
                #expect(observed.isDurable(Int64(20 + thread)))
            }
            #expect(try Self.committedIDs(path) == [1, 10, 20, 21, 22, 23, 24])
        }
        // Five writes, two to a transaction: two full ones committed during the held sync, the
        // fifth waited for its end.
        let committed = try #require(seenWhileHeld.withLock { $0 })
        #expect(committed.count == 6)
        #expect(committed.isSuperset(of: [1, 10]))
    }
}
