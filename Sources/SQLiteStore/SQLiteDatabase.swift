internal import CSQLite

/// The database: foreign keys on, migrations applied at open; a file in WAL mode, or memory.
/// Writes are serialised and each `write` is one transaction that is committed before it returns;
/// for a file, also on disk (group commit: see `GroupCommit`), and a `read` answers only with data
/// that is on disk. Reads run on read-only connections of their own, in parallel with each other.
///
/// A file is locked for this object's life (`DatabaseFileLock`): a second database on it, in this
/// process or another, is refused; and it is checked before SQLite opens it (`DatabaseFileCheck`,
/// `Migrator.checkCanMigrate`), so a path that is no database of these migrations is left as it was.
///
/// `read` and `write` must not be nested (not even `read` inside `write`): a nested call stops the
/// process with a precondition failure. Inside a closure, use the connection it was given.
///
/// `@unchecked Sendable` is safe because nothing mutable here is touched without a lock:
/// `writer` is used only while holding `writerLock`; each `readers` connection is used only by the
/// thread that checked it out of the pool, whose own state is under the pool's lock; the rest is
/// immutable after `init` (`groupCommit` has its own lock). Connections never leave the closures
/// (`SQLiteConnection` checks its borrower thread).
public final class SQLiteDatabase: @unchecked Sendable {
    public enum Location: Sendable, Equatable {
        case inMemory
        case file(String)
    }

    private let writer: SQLiteConnection
    private let writerLock = Lock()
    private let readers: ReaderPool
    private let nesting = ReentrancyGuard()
    /// In memory: reads hold it shared, writes exclusively, so that SQLite's own locks never
    /// collide (a commit that found a reader would wait in SQLite's busy handler, in milliseconds).
    /// Nil for a file, where WAL lets readers and the writer run at once.
    private let memoryGate: ReadWriteLock?
    /// For a file: the shared WAL syncs; nil in memory, where nothing is synced.
    private let groupCommit: GroupCommit?
    /// For a file: checkpoints on a thread of its own instead of inside a commit; nil in memory.
    private let checkpointer: Checkpointer?
    /// For a file: this object's claim on it (see `DatabaseFileLock`); nil in memory, or where a
    /// read-only folder has no room for a lock file.
    private let fileLock: DatabaseFileLock?
    private let appliedVersion: Int

    /// How long a connection waits for another process's lock before failing with SQLITE_BUSY.
    private static let busyTimeoutMilliseconds = 5000
    /// 1 TiB, which reserves nothing: memdb grows its buffer only as the database grows.
    static let memoryDatabaseLimitBytes: Int64 = 1 << 40
    /// 64 MiB: about twice what the checkpointer lets the log reach under steady writes.
    static let logSizeLimitBytes = 64 << 20
    /// Readers in parallel; more than the writer can usefully keep up with on a small machine is waste.
    private static let readerCapacity = 4
    /// The page cache holds copies of pages that memdb already keeps in memory, so a miss costs a
    /// 4 KiB memcpy, not I/O: 512 KiB instead of SQLite's 2 MiB default.
    private static let memoryCacheSize = "PRAGMA cache_size = -512;"

    public convenience init(location: Location, migrations: [Migration]) throws {
        try self.init(location: location, migrations: migrations) {
            WriteAheadLogFile(path: $0, databasePath: $1).sync
        }
    }

    /// `makeSync` gets the paths of the `-wal` file and of the database file, and answers what
    /// syncs the log (tests wrap it). A checkpoint starts once the log holds `checkpointThresholdFrames`.
    init(
        location: Location, migrations: [Migration],
        checkpointThresholdFrames: Int = Checkpointer.defaultThresholdFrames,
        makeSync: (_ logPath: String, _ databasePath: String) -> @Sendable () throws -> Void
    ) throws {
        precondition(sqlite3_threadsafe() != 0, "SQLiteStore needs an SQLite built thread-safe")
        // A start that fails leaves no lock file it made behind.
        var started = false
        var lock: DatabaseFileLock?
        defer { if !started { lock?.removeIfCreated() } }
        switch location {
        case .inMemory:
            // The memdb VFS rather than ":memory:": a commit to ":memory:" walks the page cache, which
            // grows with the database, so writes slowed as users piled up. A name starting with "/"
            // is shared by the connections of this process, so that reads have connections of
            // their own; the random part keeps each database private.
            let uri = "file:/auth-emulator-\(UInt64.random(in: 0...UInt64.max))?vfs=memdb"
            writer = try SQLiteConnection.open(uri, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI)
            try Self.configure(writer, durable: false)
            // Nothing in memory can be synced, so the pager need not order its writes for a sync.
            try writer.executeScript("PRAGMA synchronous = OFF;")
            try writer.executeScript(Self.memoryCacheSize)
            // Bounded by the machine's memory, as the official emulator's state is, rather than by
            // SQLite's 1 GiB default: an outbox of large app mails reached it in a few seconds.
            writer.memoryDatabaseSizeLimit(Self.memoryDatabaseLimitBytes)
            readers = ReaderPool(capacity: Self.readerCapacity) {
                let reader = try SQLiteConnection.open(uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
                try reader.executeScript(Self.memoryCacheSize)
                return reader
            }
            memoryGate = ReadWriteLock()
            groupCommit = nil
            checkpointer = nil
            fileLock = nil
        case .file(let path):
            try DatabaseFileCheck.check(path)
            lock = try DatabaseFileLock.acquire(databasePath: path)
            fileLock = lock
            do {
                writer = try SQLiteConnection.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
                // Before WAL mode is set, which writes the file's header: another program's
                // database, or a newer build's, is left as it was.
                try Migrator(migrations).checkCanMigrate(writer)
                try Self.configure(writer, durable: true)
            } catch let error as SQLiteError where error.code & 0xFF == SQLITE_NOTADB {
                throw DatabaseFileError(path: path, problem: .notADatabase)
            } catch let problem as DatabaseFileError.Problem {
                throw DatabaseFileError(path: path, problem: problem)
            }
            memoryGate = nil
            readers = ReaderPool(capacity: Self.readerCapacity) {
                let reader = try SQLiteConnection.open(path, flags: SQLITE_OPEN_READONLY)
                try reader.executeScript("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds);")
                return reader
            }
            guard let files = writer.lend(readOnly: false, { $0.databaseAndLogPaths }) else {
                throw SQLiteError(code: SQLITE_ERROR, message: "no write-ahead log file for \(path)", sql: nil)
            }
            let groupCommit = GroupCommit(sync: makeSync(files.log, files.database))
            self.groupCommit = groupCommit
            let checkpointer = try Checkpointer(
                path: path, writerLock: writerLock, thresholdFrames: checkpointThresholdFrames
            ) { groupCommit.fail($0) }
            self.checkpointer = checkpointer
            writer.observeLogSize { checkpointer.logGrew(toFrames: $0) }
        }
        do {
            appliedVersion = try Migrator(migrations).migrate(writer)
        } catch {
            // `deinit` does not run for a half-made database; its thread would run on.
            checkpointer?.stop()
            throw error
        }
        if let groupCommit {
            // Migrations commit unsynced and without a ticket; one ticket's sync covers them.
            let ticket = try groupCommit.takeTicket()
            groupCommit.finish(ticket)
            try groupCommit.waitUntilDurable(ticket)
        }
        started = true
    }

    deinit {
        // The checkpointer and readers first: the last connection to close checkpoints the WAL,
        // and only the writer can.
        checkpointer?.stop()
        readers.closeAll()
    }

    private static func configure(_ connection: SQLiteConnection, durable: Bool) throws {
        try connection.executeScript(
            "PRAGMA busy_timeout = \(busyTimeoutMilliseconds); PRAGMA foreign_keys = ON;")
        guard durable else { return }
        let mode = try connection.lend(readOnly: false) { try $0.queryFirst("PRAGMA journal_mode = WAL")?[0].text }
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR, message: "could not switch to WAL journal mode (got \(mode ?? "nothing"))", sql: nil)
        }
        // NORMAL: a commit does not fsync; `write` waits for a shared sync of the WAL instead
        // (GroupCommit), so an answered write still survives a crash of the machine.
        try connection.executeScript("PRAGMA synchronous = NORMAL;")
        // A log that grew large (a big import, or commits outpacing the checkpointer for a while)
        // is cut back to this when it is next rewritten from its start; it stays this large, so
        // that steady commits overwrite blocks the file already has instead of appending.
        try connection.executeScript("PRAGMA journal_size_limit = \(logSizeLimitBytes);")
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`); commits when it returns, rolls back
    /// when it throws (and rethrows). For a file it returns once the commit is on disk, syncing
    /// with the writer lock released so that later writers commit meanwhile and share the next
    /// sync; when the sync fails it throws. Hooks registered with `afterCommit` run after that
    /// (the commit durable, the writer lock released).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let (result, hooks, ticket) = try nesting.run {
            try excludingMemoryReads {
                try writerLock.withLock {
                    var ticket: UInt64?
                    defer { if let ticket { groupCommit?.finish(ticket) } }
                    let result = try writer.transaction(
                        begin: "BEGIN IMMEDIATE", beforeCommit: { ticket = try groupCommit?.takeTicket() }, body)
                    return (result, writer.takeCommittedHooks(), ticket)
                }
            }
        }
        if let ticket { try groupCommit?.waitUntilDurable(ticket) }
        for hook in hooks { hook() }
        return result
    }

    /// Runs `body` in a read transaction that sees one consistent snapshot. Writing in it fails.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try nesting.run {
            // Read-only connections: SQLite itself refuses writes.
            if let memoryGate {
                // No BEGIN and COMMIT: holding the gate already keeps every write out of the snapshot.
                return try memoryGate.reading { try readers.withConnection { try $0.lend(readOnly: true, body) } }
            }
            let result = try readers.withConnection { try $0.transaction(begin: "BEGIN DEFERRED", body) }
            // The snapshot may hold commits whose writers still wait for their sync.
            try groupCommit?.waitUntilVisibleCommitsAreDurable()
            return result
        }
    }

    /// In memory, a write also keeps every read out while it runs (see `memoryGate`).
    private func excludingMemoryReads<T>(_ body: () throws -> T) rethrows -> T {
        guard let memoryGate else { return try body() }
        return try memoryGate.writing(body)
    }

    /// The highest migration version applied.
    public var schemaVersion: Int { appliedVersion }

    /// Whether this object holds its file's lock, so that no other process can open the file
    /// (false in memory, and for a file in a read-only folder, where no lock file can be made).
    public var holdsFileLock: Bool { fileLock != nil }
}
