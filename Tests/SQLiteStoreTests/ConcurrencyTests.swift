import Foundation
import SQLiteStore
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test(arguments: Storage.allCases)
    func concurrentWritersLoseNoIncrement(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [counterSchema]) { database in
            try runOnThreads(4) { _ in
                for _ in 0..<200 {
                    try database.write { connection in
                        // Read-modify-write on purpose: only serialised transactions keep every step.
                        let value = try connection.queryFirst("SELECT value FROM counter WHERE id = 1")?[0].integer ?? -1
                        try connection.execute("UPDATE counter SET value = ? WHERE id = 1", [.integer(value + 1)])
                    }
                }
            }
            #expect(try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] } == 800)
        }
    }

    @Test(arguments: Storage.allCases)
    func readersInParallelWithAWriterSeeConsistentSnapshots(_ storage: Storage) throws {
        let accounts = Migration(
            version: 1, name: "accounts",
            sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL); INSERT INTO accounts VALUES (1, 500), (2, 500);")
        try withDatabase(storage, migrations: [accounts]) { database in
            let writerDone = Atomic(false)
            let reads = Atomic(0)
            let brokenSums = Mutex<[Int64]>([])
            try runOnThreads(4) { index in
                if index == 0 {
                    defer { writerDone.store(true, ordering: .releasing) }
                    for step in 0..<300 {
                        try database.write { connection in
                            // Two statements: between them the sum is off, and no reader may see that.
                            let amount = SQLiteValue.integer(Int64(step % 7 + 1))
                            try connection.execute("UPDATE accounts SET balance = balance - ? WHERE id = 1", [amount])
                            try connection.execute("UPDATE accounts SET balance = balance + ? WHERE id = 2", [amount])
                        }
                    }
                } else {
                    while !writerDone.load(ordering: .acquiring) {
                        let sum = try database.read { connection in
                            let first = try connection.queryFirst("SELECT balance FROM accounts WHERE id = 1")?[0].integer ?? 0
                            let second = try connection.queryFirst("SELECT balance FROM accounts WHERE id = 2")?[0].integer ?? 0
                            return first + second
                        }
                        reads.add(1, ordering: .relaxed)
                        if sum != 1000 { brokenSums.withLock { $0.append(sum) } }
                    }
                }
            }
            #expect(brokenSums.withLock { Array($0.prefix(5)) } == [])  // first few, if any
            #expect(reads.load(ordering: .relaxed) > 0)
        }
    }

    @Test func aReadDoesNotWaitForAnOpenWriteAndSeesOnlyCommittedData() throws {
        let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (x)")
        try withDatabase(.file, migrations: [schema]) { database in
            let countSeenDuringWrite = Mutex<Int64?>(nil)
            try database.write { connection in
                try connection.execute("INSERT INTO items VALUES (1)")
                let readFinished = DispatchSemaphore(value: 0)
                Thread {
                    let count = try? database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0].integer }
                    countSeenDuringWrite.withLock { $0 = count ?? nil }
                    readFinished.signal()
                }.start()
                // A reader blocked behind this write would time out here instead of hanging the suite.
                #expect(readFinished.wait(timeout: .now() + 5) == .success)
            }
            #expect(countSeenDuringWrite.withLock { $0 } == 0)
            #expect(try database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0] } == 1)
        }
    }

    @Test(arguments: Storage.allCases)
    func manyParallelReadsShareTheReaderPool(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [counterSchema]) { database in
            try runOnThreads(8) { _ in  // more threads than pooled readers: some wait their turn
                for _ in 0..<100 {
                    let value = try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] }
                    guard value == 0 else { throw ExpectedFailure() }
                }
            }
        }
    }

    /// In memory too, reads have connections of their own: one read finishes while another is open.
    @Test(arguments: Storage.allCases)
    func aReadDoesNotWaitForAnotherRead(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [counterSchema]) { database in
            let firstIsReading = DispatchSemaphore(value: 0)
            let secondFinished = DispatchSemaphore(value: 0)
            let secondFinishedInTime = Mutex(false)
            try runOnThreads(2) { index in
                if index == 0 {
                    _ = try database.read { connection in
                        firstIsReading.signal()
                        // A second read queued behind this one would time out here instead of hanging the suite.
                        secondFinishedInTime.withLock { $0 = secondFinished.wait(timeout: .now() + 5) == .success }
                        return try connection.queryFirst("SELECT value FROM counter")?[0]
                    }
                } else {
                    firstIsReading.wait()
                    let value = try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] }
                    guard value == 0 else { throw ExpectedFailure() }
                    secondFinished.signal()
                }
            }
            #expect(secondFinishedInTime.withLock { $0 })
        }
    }

    /// A write that starts while a read is open commits (in memory once the read is over, with no
    /// SQLITE_BUSY from SQLite's own locks), and the open read never sees it between its statements.
    @Test(arguments: Storage.allCases)
    func aWriteDuringAnOpenReadCommitsAndStaysOutOfItsSnapshot(_ storage: Storage) throws {
        try withDatabase(storage, migrations: [counterSchema]) { database in
            let isReading = DispatchSemaphore(value: 0)
            let seen = Mutex<[Int64]>([])
            try runOnThreads(2) { index in
                if index == 0 {
                    try database.read { connection in
                        let before = try connection.queryFirst("SELECT value FROM counter")?[0].integer ?? -1
                        isReading.signal()
                        Thread.sleep(forTimeInterval: 0.3)  // the write below is under way or queued
                        let after = try connection.queryFirst("SELECT value FROM counter")?[0].integer ?? -1
                        seen.withLock { $0 = [before, after] }
                    }
                } else {
                    isReading.wait()
                    try database.write { try $0.execute("UPDATE counter SET value = 1") }
                }
            }
            #expect(seen.withLock { $0 } == [0, 0])
            #expect(try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] } == 1)
        }
    }
}
