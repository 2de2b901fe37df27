import Foundation
@testable import SQLiteStore
import Synchronization
import Testing

/// Wraps the real WAL sync of a file database to see what each sync covers: at its start it lists
/// the rows a fresh reader of the file sees (committed, so their frames are written), and once the
/// real fsync has returned those rows count as durable. It can also hold a sync back or fail it.
final class ObservedSync: Sendable {
    let path: String
    private let state = Mutex<State>(State())
    private let release = DispatchSemaphore(value: 0)

    struct State {
        var durableIDs: Set<Int64> = []
        var syncs = 0
        var failNext = false
        var holdNext = false
        var holding = false
        // Opened on first use (the file exists by then); used by one sync at a time.
        var reader: SQLiteConnectionBox?
    }

    /// `SQLiteConnection` is not Sendable; syncs run one at a time, so handing it between them is safe.
    struct SQLiteConnectionBox: @unchecked Sendable { let connection: SQLiteConnection }

    init(path: String) { self.path = path }

    func makeSync(walPath: String) -> @Sendable () throws -> Void {
        let real = WriteAheadLogFile(path: walPath, databasePath: path)
        return { [self] in
            let (fail, hold) = state.withLock { state in
                defer { state.failNext = false; state.holdNext = false }
                state.holding = state.holdNext
                return (state.failNext, state.holdNext)
            }
            if hold { release.wait() }
            if fail { throw ExpectedFailure() }
            let visible = try visibleIDs()
            Thread.sleep(forTimeInterval: 0.002)  // a slow disk: writers pile up behind the sync
            try real.sync()
            state.withLock { state in
                state.durableIDs.formUnion(visible)
                state.syncs += 1
                state.holding = false
            }
        }
    }

    private func visibleIDs() throws -> [Int64] {
        let box = try state.withLock { state in
            if state.reader == nil {
                state.reader = SQLiteConnectionBox(connection: try SQLiteConnection.open(path, flags: 1))  // READONLY
            }
            return state.reader!
        }
        return try box.connection.lend(readOnly: true) { connection in
            try connection.query("SELECT id FROM items").compactMap { $0[0].integer }
        }
    }

    func isDurable(_ id: Int64) -> Bool { state.withLock { $0.durableIDs.contains(id) } }
    var syncs: Int { state.withLock { $0.syncs } }
    var isHolding: Bool { state.withLock { $0.holding } }
    func failNextSync() { state.withLock { $0.failNext = true } }
    func holdNextSync() { state.withLock { $0.holdNext = true } }
    func releaseHeldSync() { release.signal() }
}

@Suite struct GroupCommitTests {
    let schema = Migration(version: 1, name: "items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY)")

    func withObservedDatabase(_ body: (SQLiteDatabase, ObservedSync, String) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/group.sqlite"
            let observed = ObservedSync(path: path)
            let database = try SQLiteDatabase(location: .file(path), migrations: [schema]) { log, _ in
                observed.makeSync(walPath: log)
            }
            try body(database, observed, path)
        }
    }

    @Test func concurrentWritersShareSyncsAndEachReturnsOnlyOnceItsRowIsDurable() throws {
        try withObservedDatabase { database, observed, _ in
            let syncsAtStart = observed.syncs  // the migration's
            let notDurableOnReturn = Mutex<[Int64]>([])
            let hookSawNotDurable = Mutex<[Int64]>([])
            let threads = 8, writesEach = 25
            // Sharing forced on any schedule: the first sync is held until the seven other writers
            // have committed and wait for it, so the next one covers all seven.
            observed.holdNextSync()
            let sharingForced = Atomic(false)
            try runOnThreads(threads + 1) { thread in
                if thread == threads {
                    let othersWait = eventually { observed.isHolding && database.threadsWaitingForASync == threads - 1 }
                    sharingForced.store(othersWait, ordering: .releasing)
                    observed.releaseHeldSync()
                    return
                }
                for step in 0..<writesEach {
                    let id = Int64(thread * writesEach + step)
                    try database.write { connection in
                        try connection.execute("INSERT INTO items VALUES (?)", [.integer(id)])
                        connection.afterCommit {
                            if !observed.isDurable(id) { hookSawNotDurable.withLock { $0.append(id) } }
                        }
                    }
                    if !observed.isDurable(id) { notDurableOnReturn.withLock { $0.append(id) } }
                }
            }
            #expect(notDurableOnReturn.withLock { $0 } == [])
            #expect(hookSawNotDurable.withLock { $0 } == [])
            #expect(try database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0] } == .integer(Int64(threads * writesEach)))
            let forced = sharingForced.load(ordering: .acquiring)
            #expect(forced)
            let syncs = observed.syncs - syncsAtStart
            #expect(syncs > 0 && syncs <= threads * writesEach - (threads - 2))
        }
    }

    @Test func aReadThatSeesAnUnsyncedCommitWaitsForItsSync() throws {
        try withObservedDatabase { database, observed, _ in
            observed.holdNextSync()
            let readDone = Atomic(false)
            let readDoneWhileHeld = Atomic(false)
            let readCount = Mutex<Int64?>(nil)
            try runOnThreads(2) { thread in
                if thread == 0 {
                    try database.write { try $0.execute("INSERT INTO items VALUES (1)") }
                } else {
                    guard eventually({ observed.isHolding }) else { throw ExpectedFailure() }
                    // The row is committed (visible) but its sync is held: the read must not answer
                    // while it waits for that sync.
                    Thread {
                        let waiting = eventually { database.threadsWaitingForASync == 1 }
                        readDoneWhileHeld.store(!waiting || readDone.load(ordering: .acquiring), ordering: .releasing)
                        observed.releaseHeldSync()
                    }.start()
                    let count = try database.read { try $0.queryFirst("SELECT count(*) FROM items")?[0].integer }
                    readDone.store(true, ordering: .releasing)
                    readCount.withLock { $0 = observed.isDurable(1) ? count : -1 }
                }
            }
            #expect(readCount.withLock { $0 } == 1)
            let answeredWhileHeld = readDoneWhileHeld.load(ordering: .acquiring)
            #expect(!answeredWhileHeld)
        }
    }

    @Test func aFailedSyncFailsEveryWaiterAndEveryLaterWriteAndRunsNoHook() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/failing.sqlite"
            let hooksRun = Atomic(0)
            do {
                let observed = ObservedSync(path: path)
                let database = try SQLiteDatabase(location: .file(path), migrations: [schema]) { log, _ in
                    observed.makeSync(walPath: log)
                }
                try database.write { try $0.execute("INSERT INTO items VALUES (0)") }
                observed.holdNextSync()
                observed.failNextSync()
                let failures = Mutex<[Int32]>([])
                try runOnThreads(4) { thread in
                    if thread > 0 { guard eventually({ observed.isHolding }) else { throw ExpectedFailure() } }
                    if thread == 1 { observed.releaseHeldSync() }
                    do {
                        try database.write { connection in
                            try connection.execute("INSERT INTO items VALUES (?)", [.integer(Int64(thread + 1))])
                            connection.afterCommit { hooksRun.add(1, ordering: .relaxed) }
                        }
                    } catch let error as SQLiteError {
                        failures.withLock { $0.append(error.code) }
                    }
                }
                #expect(failures.withLock { $0 } == [1034, 1034, 1034, 1034])  // SQLITE_IOERR_FSYNC
                #expect(hooksRun.load(ordering: .relaxed) == 0)
                // Nothing more is promised durable: later writes roll back, reads of the unsynced fail.
                let later = #expect(throws: SQLiteError.self) {
                    try database.write { try $0.execute("INSERT INTO items VALUES (100)") }
                }
                #expect(later?.code == 1034)
                #expect(later?.message.contains("restart the emulator") == true)
                #expect(throws: SQLiteError.self) { try database.read { try $0.query("SELECT id FROM items") } }
            }
            // A fresh open: the row synced before the failure is there, the refused write is not.
            let reopened = try SQLiteDatabase(location: .file(path), migrations: [schema])
            let ids = try reopened.read { try $0.query("SELECT id FROM items ORDER BY id") }.compactMap { $0[0].integer }
            #expect(ids.first == 0)
            #expect(!ids.contains(100))
            try reopened.write { try $0.execute("INSERT INTO items VALUES (200)") }
        }
    }

    @Test func theRealSyncOpensTheWALFileSQLiteNamed() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/real.sqlite"
            let paths = Mutex<[String]>([])
            let database = try SQLiteDatabase(location: .file(path), migrations: [schema]) { log, file in
                paths.withLock { $0 += [log, file] }
                return WriteAheadLogFile(path: log, databasePath: file).sync
            }
            try database.write { try $0.execute("INSERT INTO items VALUES (1)") }
            #expect(paths.withLock { $0 } == ["\(path)-wal", path])
            let missing = WriteAheadLogFile(path: "\(directory)/missing-wal", databasePath: path)
            #expect(throws: SQLiteError.self) { try missing.sync() }
        }
    }

    /// Writers that commit while a sync runs sleep until it ends; then one of them runs the next
    /// sync, for all of them, and the others are woken only once it covers them.
    @Test func writersLeftOutOfARunningSyncShareTheNextOne() throws {
        let syncs = Atomic(0)
        let firstStarted = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        let groupCommit = GroupCommit(sync: {
            if syncs.add(1, ordering: .relaxed).newValue == 1 {
                firstStarted.signal()
                releaseFirst.wait()
            }
        })
        let first = try groupCommit.takeTicket()
        groupCommit.finish(first)
        let done = DispatchGroup()
        done.enter()
        Thread {
            defer { done.leave() }
            try? groupCommit.waitUntilDurable(first)
        }.start()
        firstStarted.wait()
        // Three more commits finish while the first sync runs (as under the writer lock, one by one).
        for _ in 0..<3 {
            let ticket = try groupCommit.takeTicket()
            groupCommit.finish(ticket)
            done.enter()
            Thread {
                defer { done.leave() }
                try? groupCommit.waitUntilDurable(ticket)
            }.start()
        }
        let leftOutWait = eventually { groupCommit.waiterCount == 3 }  // asleep, not just started
        releaseFirst.signal()
        #expect(leftOutWait)
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(syncs.load(ordering: .relaxed) == 2)
    }

    /// A read that saw a commit still running waits for it; when that commit's writer does not
    /// wait (its COMMIT failed after taking a ticket), finishing it makes the read run the sync.
    @Test func aReadWaitingForACommitWhoseWriterNeverWaitsIsSyncedWhenItFinishes() throws {
        let syncs = Atomic(0)
        let groupCommit = GroupCommit(sync: { syncs.add(1, ordering: .relaxed) })
        let ticket = try groupCommit.takeTicket()
        let readDone = DispatchSemaphore(value: 0)
        Thread {
            try? groupCommit.waitUntilVisibleCommitsAreDurable()
            readDone.signal()
        }.start()
        #expect(eventually { groupCommit.waiterCount == 1 })
        #expect(readDone.wait(timeout: .now()) == .timedOut)  // its commit has not finished
        groupCommit.finish(ticket)
        #expect(readDone.wait(timeout: .now() + 60) == .success)
        #expect(syncs.load(ordering: .relaxed) == 1)
    }
}
