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

    @Test func readersInParallelWithAWriterSeeConsistentSnapshots() throws {
        let accounts = Migration(
            version: 1, name: "accounts",
            sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL); INSERT INTO accounts VALUES (1, 500), (2, 500);")
        try withDatabase(.file, migrations: [accounts]) { database in
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

    @Test func manyParallelReadsShareTheReaderPool() throws {
        try withDatabase(.file, migrations: [counterSchema]) { database in
            try runOnThreads(8) { _ in  // more threads than pooled readers: some wait their turn
                for _ in 0..<100 {
                    let value = try database.read { try $0.queryFirst("SELECT value FROM counter")?[0] }
                    guard value == 0 else { throw ExpectedFailure() }
                }
            }
        }
    }
}
