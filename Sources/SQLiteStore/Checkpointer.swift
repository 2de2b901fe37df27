internal import CSQLite
import Synchronization
import Threads

/// Copies a file database's write-ahead log into the database file on a thread of its own, with a
/// connection of its own, so that commits do not.
///
/// Why. SQLite's automatic checkpoint runs inside the COMMIT that takes the log past 1000 pages,
/// under the writer lock: it syncs the log, writes every page, and syncs the database file (4-10 ms
/// on the disk measured), while every other writer queues. Here the commits only report the log's
/// size (`logGrew`, from the writer's WAL hook, which replaces the automatic checkpoint), and this
/// thread checkpoints PASSIVE, which never blocks writers and copies only what every reader is done
/// with.
///
/// The log is only rewritten from its start (cheap to sync: no new blocks) when a write transaction
/// begins with every frame copied, which concurrent commits would never let a PASSIVE checkpoint
/// reach. So after the unlocked passes have copied the bulk, one last pass runs holding the writer
/// lock and copies the few frames committed meanwhile.
///
/// Durability is SQLite's own: a checkpoint syncs the log before copying it and the database file
/// before the log may be reused, whichever connection runs it. A checkpoint that fails with an I/O
/// error reports it through `onFailure` (the group commit then fails every later write, as for a
/// failed sync of the log).
///
/// `@unchecked Sendable`: `requested`, `stopping` and `completedRuns` are read and written only under `lock`, the
/// log sizes are atomics, `thread` is set by `init` and cleared by `stop` (called once, by the
/// database's owner), and the connection is used only by the checkpoint thread, which owns it.
final class Checkpointer: @unchecked Sendable {
    /// A checkpoint starts once the log holds this many frames (SQLite's automatic one: 1000), a
    /// log of ~34 MB. Fewer, larger checkpoints copy a page written by many commits once and take
    /// the writer lock less often: signup-data 1000 -> 4000 frames ~3.2k -> ~3.8k req/s, 4000 ->
    /// 8192 ~3.0k -> ~3.4k in interleaved runs (16384 and 32768 were no better).
    static let defaultThresholdFrames = 8192
    /// Unlocked passes stop once fewer frames than this are left for the locked one to copy
    /// (or after `maximumUnlockedPasses`, if writers outpace them).
    static let lockedPassFrames = 256
    static let maximumUnlockedPasses = 4

    private let lock = Lock()
    private var requested = false
    private var stopping = false
    /// Checkpoints run to their end (or failure), for tests that wait for one.
    private var completedRuns = 0
    private let thresholdFrames: Int
    /// The log's size in frames after the last commit (0 again once the writer restarts it).
    private let logFrames = Atomic(0)
    /// The log's size that asks for a checkpoint: the threshold, or after a checkpoint that left
    /// the log in use (a reader kept the writer from restarting it) half a threshold more, so that
    /// such a log is not checkpointed (with a pass under the writer lock) after every commit.
    private let nextCheckpointFrames: Atomic<Int>
    private var thread: PosixThread?

    /// `writerLock` is the lock every write transaction holds; `onFailure` gets a failed checkpoint's error.
    init(
        path: String, writerLock: Lock, thresholdFrames: Int = Checkpointer.defaultThresholdFrames,
        onFailure: @escaping @Sendable (SQLiteError) -> Void
    ) throws {
        self.thresholdFrames = thresholdFrames
        nextCheckpointFrames = Atomic(thresholdFrames)
        let connection = try SQLiteConnection.open(path, flags: SQLITE_OPEN_READWRITE)
        // A connection finds the log when it first reads; until then it has none to checkpoint
        // (SQLite then answers OK and does nothing).
        try connection.executeScript("SELECT count(*) FROM sqlite_master;")
        do {
            thread = try PosixThread { [self] in
                connection.lend(readOnly: false) { run($0, writerLock: writerLock, onFailure: onFailure) }
            }
        } catch {
            throw SQLiteError(code: 1, message: "\(error)", sql: nil)  // SQLITE_ERROR
        }
    }

    /// From the writer's WAL hook after every commit (writer lock held): cheap below the threshold.
    func logGrew(toFrames frames: Int) {
        logFrames.store(frames, ordering: .relaxed)
        let checkpointAt = nextCheckpointFrames.load(ordering: .relaxed)
        if frames < checkpointAt {
            // Restarted: the next checkpoint is due at the threshold again.
            if frames < thresholdFrames && checkpointAt != thresholdFrames {
                nextCheckpointFrames.store(thresholdFrames, ordering: .relaxed)
            }
            return
        }
        lock.withLock {
            guard !requested else { return }
            requested = true
            lock.signal()
        }
    }

    /// Ends the thread (after the checkpoint it may be running) and closes its connection.
    /// Call once, before the writer connection closes.
    func stop() {
        lock.withLock {
            stopping = true
            lock.signal()
        }
        thread?.join()
        thread = nil
    }

    /// Unlocked passes until few frames are left (a pass copies what was committed when it
    /// started), then one holding the writer lock, which copies the rest: the next write then
    /// finds the log fully copied and rewrites it from its start (unless a reader still uses it).
    private func checkpoint(_ connection: SQLiteConnection, writerLock: Lock) throws {
        for _ in 0..<Self.maximumUnlockedPasses {
            guard let copied = try connection.checkpointPassively() else { return }  // busy: next time
            let left = logFrames.load(ordering: .relaxed) - copied
            if left <= 0 { return }  // caught up (or the log was restarted meanwhile)
            if left < Self.lockedPassFrames { break }
        }
        _ = try writerLock.withLock { try connection.checkpointPassively() }
    }

    private func run(_ connection: SQLiteConnection, writerLock: Lock, onFailure: (SQLiteError) -> Void) {
        while true {
            let stop: Bool = lock.withLock {
                while !requested && !stopping { lock.wait() }
                return stopping
            }
            if stop { return }
            do {
                try checkpoint(connection, writerLock: writerLock)
            } catch let error as SQLiteError {
                onFailure(error)
            } catch {
                onFailure(SQLiteError(code: 1, message: "checkpoint: \(error)", sql: nil))  // SQLITE_ERROR
            }
            // Commits reported during the passes are covered by them; a commit past the next
            // mark asks again (the hook runs on every commit).
            nextCheckpointFrames.store(
                max(thresholdFrames, logFrames.load(ordering: .relaxed) + thresholdFrames / 2), ordering: .relaxed)
            lock.withLock {
                requested = false
                completedRuns += 1
            }
        }
    }

    var runsCompleted: Int { lock.withLock { completedRuns } }
}
