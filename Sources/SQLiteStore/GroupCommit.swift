#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Group commit for a file database: commits do not sync, and whoever waits first syncs the
/// write-ahead log once for every commit that finished before it started, so concurrent writers
/// share one fsync instead of queueing behind each other's.
///
/// Why this is durable. The writer commits with `PRAGMA synchronous = NORMAL` in WAL mode, where,
/// as SQLite documents, a commit only `write`s its frames to the `-wal` file and the WAL is synced
/// only before a checkpoint (the database file after one, the WAL header when the log is reused).
/// The frames of a commit are written by the time COMMIT returns, so an fsync that starts after
/// that makes them durable; on the next open SQLite's recovery replays every commit whose frames
/// are intact. Checkpoints stay safe on their own: at NORMAL SQLite syncs the WAL before copying
/// it into the database and the database before the log is reused.
///
/// Tickets: the writer takes one (under its lock) right before COMMIT and marks it finished after,
/// so tickets up to `finished` have their frames written, and a sync started then covers them all.
/// A commit becomes visible to readers during COMMIT, i.e. after its ticket was taken, so a read
/// that waits for every ticket taken by its end never answers with data that is not yet durable.
///
/// Waking. While a sync runs, the threads that wait each sleep on a `Waiter` of their own. When it
/// ends, its thread wakes exactly the waiters it covered, and one of the others (whose commit
/// finished meanwhile) to run the next sync. Sleeping on one shared condition instead, every sync's
/// end woke all of them (16 under load), and each fought for the lock only to find its commit not
/// yet covered and sleep again.
final class GroupCommit: @unchecked Sendable {  // every `var` is read and written only under `lock`
    private let lock = Lock()
    private let sync: @Sendable () throws -> Void
    /// The last ticket taken.
    private var taken: UInt64 = 0
    /// Tickets up to this one have finished their COMMIT (or failed it).
    private var finished: UInt64 = 0
    /// Tickets up to this one are on disk.
    private var durable: UInt64 = 0
    /// A sync is running (outside the lock); the others wait for it instead of starting their own.
    private var syncing = false
    /// Threads asleep until a sync covers their target (or they are chosen to run the next one).
    private var waiters: [Waiter] = []
    /// The first failed sync. It stays: after a failed fsync Linux may drop the pages it could not
    /// write and report the next fsync clean, so a retry would prove nothing. Later writes fail.
    private var failure: SQLiteError?

    /// `sync` makes every write to the WAL that returned before it was called durable.
    init(sync: @escaping @Sendable () throws -> Void) {
        self.sync = sync
    }

    /// Under the writer lock, right before COMMIT. Throws (so the transaction rolls back) once a
    /// sync has failed: nothing committed from then on could be promised durable.
    func takeTicket() throws -> UInt64 {
        try lock.withLock {
            if let failure { throw failure }
            taken += 1
            return taken
        }
    }

    /// Under the writer lock, after COMMIT returned or failed (a failed one costs at most a sync).
    func finish(_ ticket: UInt64) {
        let syncer: Waiter? = lock.withLock {
            finished = ticket
            // Only a read can be waiting for a commit still running; with no sync running, nobody
            // else would sync for it (its writer may have failed and not wait at all).
            return syncing || waiters.isEmpty ? nil : chooseNextSyncer()
        }
        syncer?.wake(.sync(through: ticket))
    }

    /// Blocks until the commit with `ticket` is durable, syncing if no one else is.
    func waitUntilDurable(_ ticket: UInt64) throws {
        try waitUntilDurable(through: ticket)
    }

    /// Blocks until every commit a read that has just ended could have seen is durable.
    func waitUntilVisibleCommitsAreDurable() throws {
        try waitUntilDurable(through: nil)
    }

    /// Something else that had to reach the disk did not (a checkpoint's sync): as after a failed
    /// sync, waiters and every later write fail.
    func fail(_ error: SQLiteError) {
        let woken: [(Waiter, Waiter.Outcome)] = lock.withLock {
            failure = failure ?? Self.syncFailure(error)
            defer { waiters = [] }
            return waiters.map { ($0, $0.target <= durable ? .done : .failed(failure!)) }
        }
        for (waiter, outcome) in woken { waiter.wake(outcome) }
    }

    private static func syncFailure(_ error: any Error) -> SQLiteError {
        SQLiteError(
            code: 1034,  // SQLITE_IOERR_FSYNC
            message: "could not sync the database's write-ahead log to disk (\(error)); "
                + "nothing written since the last sync can be promised durable: restart the emulator",
            sql: nil)
    }

    /// Threads asleep here now (writers and reads), for tests that order a step after they wait.
    var waiterCount: Int { lock.withLock { waiters.count } }

    /// `ticket` nil: the last ticket taken when this is called.
    private func waitUntilDurable(through ticket: UInt64?) throws {
        var next: Waiter.Outcome = lock.withLock {
            let target = ticket ?? taken
            if durable >= target { return .done }
            if let failure { return .failed(failure) }
            if !syncing && finished >= target {
                syncing = true
                return .sync(through: finished)
            }
            // A sync is running (its end wakes us), or `target` is still committing (its `finish`
            // or the next sync's end makes us the syncer).
            let waiter = Waiter(target: target)
            waiters.append(waiter)
            return .wait(waiter)
        }
        while true {
            switch next {
            case .done: return
            case .failed(let error): throw error
            case .wait(let waiter): next = waiter.sleep()
            case .sync(let covered):
                let outcome = Result { try sync() }
                next = endSync(covering: covered, outcome)
            }
        }
    }

    /// After a sync through `covered`: marks it durable (or the failure), wakes the waiters it
    /// covered, and chooses the next syncer among the others. Answers the syncing thread's outcome.
    private func endSync(covering covered: UInt64, _ outcome: Result<Void, any Error>) -> Waiter.Outcome {
        var woken: [(Waiter, Waiter.Outcome)] = []
        let mine: Waiter.Outcome = lock.withLock {
            syncing = false
            switch outcome {
            case .success: durable = max(durable, covered)
            case .failure(let error): failure = failure ?? Self.syncFailure(error)
            }
            var left: [Waiter] = []
            for waiter in waiters {
                if waiter.target <= durable {
                    woken.append((waiter, .done))
                } else if let failure {
                    woken.append((waiter, .failed(failure)))
                } else {
                    left.append(waiter)
                }
            }
            waiters = left
            if let syncer = chooseNextSyncer() { woken.append((syncer, .sync(through: finished))) }
            // The syncer's own commit finished before its sync started, so it is covered.
            if case .failure = outcome { return .failed(failure!) }
            return .done
        }
        for (waiter, outcome) in woken { waiter.wake(outcome) }
        return mine
    }

    /// With no sync running: the first waiter whose target has finished committing, taken out of
    /// `waiters` and marked as syncing; nil when there is none (or a sync has failed). Under `lock`.
    private func chooseNextSyncer() -> Waiter? {
        guard failure == nil, let index = waiters.firstIndex(where: { $0.target <= finished }) else { return nil }
        syncing = true
        return waiters.remove(at: index)
    }
}

/// One thread asleep in `GroupCommit`, woken with what to do next. Its own lock, so that waking
/// it wakes only it, and it does not take `GroupCommit`'s lock again on waking.
private final class Waiter: @unchecked Sendable {  // `outcome` is read and written only under `lock`
    enum Outcome {
        case done
        case failed(SQLiteError)
        /// Run the next sync, which covers tickets up to this one.
        case sync(through: UInt64)
        /// Sleep on this waiter (only between `GroupCommit`'s lock and `sleep`).
        case wait(Waiter)
    }

    let target: UInt64
    private let lock = Lock()
    private var outcome: Outcome?

    init(target: UInt64) { self.target = target }

    func wake(_ outcome: Outcome) {
        lock.withLock {
            self.outcome = outcome
            lock.signal()
        }
    }

    func sleep() -> Outcome {
        lock.withLock {
            while outcome == nil { lock.wait() }
            return outcome!
        }
    }
}

/// Syncs a database's `-wal` file through a descriptor of its own (SQLite's is private to the
/// connection). The WAL file keeps its inode while the writer connection is open: SQLite deletes
/// it only when the last connection closes, and truncating or restarting the log reuses the file.
///
/// `@unchecked Sendable`: `descriptor` and `firstSyncDone` are used only inside `sync`, which
/// `GroupCommit` runs on one thread at a time (its `syncing` flag, set and cleared under its lock,
/// orders one sync before the next).
final class WriteAheadLogFile: @unchecked Sendable {
    private let path: String
    private let databasePath: String
    private var descriptor: Int32 = -1
    private var firstSyncDone = false

    init(path: String, databasePath: String) {
        self.path = path
        self.databasePath = databasePath
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// fsyncs the WAL. The first time also what SQLite left unsynced when it made the files: the
    /// database file (a new one gets its first page, the WAL-mode header, without a sync, and on
    /// open SQLite deletes the WAL of an empty database file) and the directory holding both
    /// entries (SQLite syncs a new WAL's directory only when it syncs the WAL itself).
    func sync() throws {
        if descriptor < 0 {
            // Opened on first use, not at open: SQLite creates the file when the database is
            // first used in WAL mode, and it is not ours to create. fsync needs no write access.
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.error("open", path) }
            descriptor = opened
        }
        guard Self.syncData(descriptor) == 0 else { throw Self.error("fsync", path) }
        if !firstSyncDone {
            let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            try Self.syncOnce(databasePath)
            try Self.syncOnce(directory.isEmpty ? "/" : directory)
            firstSyncDone = true
        }
    }

    /// The log's data and what reading it back needs (its size when it grew): `fdatasync` on
    /// Linux, as SQLite's own syncs, rather than `fsync`, which also writes the modification time
    /// that every write changes. (On the bench's disk a sync takes ~1.3 ms either way.)
    private static func syncData(_ descriptor: Int32) -> Int32 {
        #if os(Linux)
        fdatasync(descriptor)
        #else
        fsync(descriptor)
        #endif
    }

    private static func syncOnce(_ path: String) throws {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw error("open", path) }
        defer { close(opened) }
        guard fsync(opened) == 0 else { throw error("fsync", path) }
    }

    private static func error(_ call: String, _ path: String) -> SQLiteError {
        let reason = String(cString: strerror(errno))
        return SQLiteError(code: 10, message: "\(call) \(path): \(reason)", sql: nil)  // SQLITE_IOERR
    }
}
