import Foundation
@testable import SQLiteStore
import Synchronization
import Testing

@Suite struct CheckpointerTests {
    let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Commits report the log's size; the checkpoint thread copies the log into the database file
    /// and lets the writer rewrite it from its start, so under steady writes the log stays near the
    /// threshold instead of holding every commit (here it would reach ~8 MiB), and every row is
    /// still there, whole, when the file is opened again. The writers commit in ten rounds, and
    /// each round waits for a checkpoint to have run: on a busy machine the checkpoint thread
    /// once got no turn until the log had passed 8 MiB.
    @Test func theLogIsCopiedIntoTheDatabaseFileAndReusedWhileWritersCommit() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/checkpointed.sqlite"
            let threads = 4, writesEach = 500
            let largestLog = Atomic(0)
            do {
                let database = try SQLiteDatabase(
                    location: .file(path), migrations: [schema], checkpointThresholdFrames: 64
                ) { log, file in
                    WriteAheadLogFile(path: log, databasePath: file).sync
                }
                let rounds = 10
                for round in 0..<rounds {
                    // Each round's 200 commits pass the threshold, so each asks for a checkpoint.
                    let checkpointsBefore = database.checkpointsRun
                    try runOnThreads(threads) { thread in
                        for step in (round * writesEach / rounds)..<((round + 1) * writesEach / rounds) {
                            let id = Int64(thread * writesEach + step)
                            // A page of its own per row: each commit writes at least one frame.
                            try database.write {
                                try $0.execute("INSERT INTO items VALUES (?, ?)", [.integer(id), .blob([UInt8](repeating: UInt8(step & 0xFF), count: 3000))])
                            }
                            largestLog.max(Self.fileSize("\(path)-wal"), ordering: .relaxed)
                        }
                    }
                    #expect(eventually { database.checkpointsRun > checkpointsBefore })
                }
                // Without checkpoints the log would hold every commit's frames: over 2000 of 4 KiB
                // (8 MiB). Smaller means it was rewritten from its start, at least once a round.
                #expect(Self.fileSize(path) > 2 << 20)
                #expect(largestLog.load(ordering: .relaxed) < 6 << 20)
                #expect(try database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0] } == .integer(Int64(threads * writesEach)))
            }
            let reopened = try SQLiteDatabase(location: .file(path), migrations: [schema])
            #expect(try reopened.read { try $0.queryFirst("PRAGMA integrity_check")?[0] } == .text("ok"))
            #expect(try reopened.read { try $0.queryFirst("SELECT count(*) FROM items")?[0] } == .integer(Int64(threads * writesEach)))
        }
    }

    /// A checkpoint that could not write (its error reported by the checkpoint thread) fails
    /// waiters and every later write, as a failed sync of the log does.
    @Test func aReportedCheckpointFailureFailsLaterWrites() throws {
        let groupCommit = GroupCommit(sync: {})
        let ticket = try groupCommit.takeTicket()
        groupCommit.finish(ticket)
        groupCommit.fail(SQLiteError(code: 778, message: "disk I/O error", sql: nil))  // SQLITE_IOERR_WRITE
        let waited = #expect(throws: SQLiteError.self) { try groupCommit.waitUntilDurable(ticket) }
        #expect(waited?.code == 1034)
        #expect(waited?.message.contains("disk I/O error") == true)
        #expect(throws: SQLiteError.self) { _ = try groupCommit.takeTicket() }
    }
}
