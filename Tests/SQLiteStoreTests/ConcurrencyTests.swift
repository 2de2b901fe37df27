import Foundation
@testable import SQLiteStore
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

    /// Readers beside a writer never see its transaction half done. The interleavings are forced,
    /// so that they happen on any schedule (a busy machine once ran every write before any read):
    /// after each commit the writer waits until every reader has finished a read that began after
    /// it, and for a file, where WAL lets reads run during a write, every tenth write waits between
    /// its two statements until a read has run.
    @Test(arguments: Storage.allCases)
    func readersInParallelWithAWriterSeeConsistentSnapshots(_ storage: Storage) throws {
        let accounts = Migration(
            version: 1, name: "accounts",
            sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL); INSERT INTO accounts VALUES (1, 500), (2, 500);")
        struct Progress {
            var committed = 0
            var writerDone = false
            /// Per reader: the most commits there were when one of its finished reads began.
            var seenAfter = [Int](repeating: -1, count: 3)
            var reads = 0
            var readsDuringOpenWrites = 0
            var brokenSums: [Int64] = []
        }
        let writes = 200, readers = 3
        try withDatabase(storage, migrations: [accounts]) { database in
            let progress = Monitor(Progress())
            try runOnThreads(1 + readers) { index in
                if index == 0 {
                    defer { progress.update { $0.writerDone = true } }
                    for step in 0..<writes {
                        try database.write { connection in
                            // Two statements: between them the sum is off, and no reader may see that.
                            let amount = SQLiteValue.integer(Int64(step % 7 + 1))
                            try connection.execute("UPDATE accounts SET balance = balance - ? WHERE id = 1", [amount])
                            if storage == .file && step % 10 == 0 {
                                let readsBefore = progress.update { $0.reads }
                                guard progress.wait(until: { $0.reads > readsBefore }) else { throw ExpectedFailure() }
                                progress.update { $0.readsDuringOpenWrites += 1 }
                            }
                            try connection.execute("UPDATE accounts SET balance = balance + ? WHERE id = 2", [amount])
                        }
                        progress.update { $0.committed = step + 1 }
                        guard progress.wait(until: { $0.seenAfter.allSatisfy { $0 > step } }) else { throw ExpectedFailure() }
                    }
                } else {
                    while true {
                        let (committed, done) = progress.update { ($0.committed, $0.writerDone) }
                        if done { return }
                        let sum = try database.read { connection in
                            let first = try connection.queryFirst("SELECT balance FROM accounts WHERE id = 1")?[0].integer ?? 0
                            let second = try connection.queryFirst("SELECT balance FROM accounts WHERE id = 2")?[0].integer ?? 0
                            return first + second
                        }
                        progress.update { progress in
                            progress.reads += 1
                            progress.seenAfter[index - 1] = max(progress.seenAfter[index - 1], committed)
                            if sum != 1000 { progress.brokenSums.append(sum) }
                        }
                    }
                }
            }
            let seen = progress.update { $0 }
            #expect(Array(seen.brokenSums.prefix(5)) == [])  // first few, if any
            #expect(seen.reads >= writes * readers)
            #expect(seen.readsDuringOpenWrites == (storage == .file ? writes / 10 : 0))
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
                #expect(readFinished.wait(timeout: .now() + 60) == .success)
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
                        secondFinishedInTime.withLock { $0 = secondFinished.wait(timeout: .now() + 60) == .success }
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
    /// The read's second statement runs only once the write has committed (a file) or waits at the
    /// gate (memory, where it cannot commit before the read ends).
    @Test(arguments: Storage.allCases)
    func aWriteDuringAnOpenReadCommitsAndStaysOutOfItsSnapshot(_ storage: Storage) throws {
        #if !canImport(Glibc)
        // Only glibc's writer-preferring gate shows a waiting write (`aWriteWaitsForReads`).
        if storage == .memory { return }
        #endif
        try withDatabase(storage, migrations: [counterSchema]) { database in
            let isReading = DispatchSemaphore(value: 0)
            let written = Atomic(false)
            let seen = Mutex<[Int64]>([])
            try runOnThreads(2) { index in
                if index == 0 {
                    try database.read { connection in
                        let before = try connection.queryFirst("SELECT value FROM counter")?[0].integer ?? -1
                        isReading.signal()
                        let writeUnderWay = eventually {
                            storage == .file ? written.load(ordering: .acquiring) : database.aWriteWaitsForReads
                        }
                        guard writeUnderWay else { throw ExpectedFailure() }
                        let after = try connection.queryFirst("SELECT value FROM counter")?[0].integer ?? -1
                        seen.withLock { $0 = [before, after] }
                    }
                } else {
                    isReading.wait()
                    try database.write { try $0.execute("UPDATE counter SET value = 1") }
                    written.store(true, ordering: .releasing)
                }
            }
            #expect(seen.withLock { $0 } == [0, 0])
            #expect(try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] } == 1)
        }
    }
}
