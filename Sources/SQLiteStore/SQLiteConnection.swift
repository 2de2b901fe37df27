internal import CSQLite

/// A connection lent to a `read` or `write` closure. Do not keep it past the closure.
///
/// Not `Sendable`: it belongs to the thread running the closure. Using it anywhere else (another
/// thread, or after the closure returned) stops the process with a precondition failure rather than
/// corrupting someone else's transaction.
public final class SQLiteConnection {
    private let handle: OpaquePointer  // sqlite3*
    /// Prepared statements by SQL text. The app's SQL is a fixed set of literals; the cap only stops
    /// runaway growth if someone interpolates values into SQL instead of binding them.
    private var statements: [StatementKey: SQLiteStatement] = [:]
    private static let statementCacheLimit = 256
    /// In front of `statements`: the statement last found for each of a few places SQL text lives
    /// at. The app's SQL is literals and `static let`s, whose bytes never move, so a hit costs an
    /// address compare and a `==` that sees the same storage, instead of hashing the text and
    /// probing the dictionary (about 1.2k instructions a statement, 4-5 statements a request).
    /// A hit is still checked by text: other SQL may come to live at an address later.
    private var recentStatements = [RecentStatement?](repeating: nil, count: recentStatementSlots)
    private static let recentStatementSlots = 64
    private var lastChanges = 0
    /// The thread this connection is lent to, if any (see `lend`).
    private var borrower: UInt?
    /// Set while lent to an in-memory `read` (as it was when those reads shared the writer's
    /// connection): statements that would write are refused before SQLite sees them, and
    /// `afterCommit` stops the process. A file's reads rely on the read-only open flag alone, which
    /// lets a `PRAGMA journal_mode` query through; the reader connections refuse writes either way.
    private var refusesWrites = false
    /// Work to run once the current write transaction has committed (see `afterCommit`).
    private var commitHooks: [() -> Void] = []
    /// Hooks of the last committed transaction, until `SQLiteDatabase` takes them.
    private var committedHooks: [() -> Void] = []
    /// The WAL hook's context (see `observeLogSize`), released once the connection is closed.
    private var logSizeObserver: Unmanaged<LogSizeObserver>?

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        recentStatements.removeAll()
        statements.removeAll()  // finalize every statement before closing
        sqlite3_close_v2(handle)
        logSizeObserver?.release()
    }

    /// Opens `filename` with `flags` plus SQLITE_OPEN_NOMUTEX: each connection is used by one
    /// thread at a time (SQLiteDatabase's locks see to it), so SQLite's per-connection mutex would
    /// only add cost.
    static func open(_ filename: String, flags: Int32) throws -> SQLiteConnection {
        _ = processSettings
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(filename, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, database: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw SQLiteError(code: error.code, message: "\(error.message) (\(filename))", sql: nil)
        }
        sqlite3_extended_result_codes(handle, 1)
        return SQLiteConnection(handle: handle)
    }

    /// The most an in-memory (memdb) database may grow to. SQLite's default is 1 GiB, after which
    /// every write fails with SQLITE_FULL; `limit` replaces it (never below the current size).
    /// Answers the limit in force; nil for a database that is not in memory.
    @discardableResult
    func memoryDatabaseSizeLimit(_ limit: Int64 = -1) -> Int64? {
        var value = limit
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_SIZE_LIMIT, &value) == SQLITE_OK else { return nil }
        return value
    }

    /// Process-wide settings, applied once before the first connection opens (SQLite accepts
    /// `sqlite3_config` only before it initialises; later it answers SQLITE_MISUSE and changes nothing).
    private static let processSettings: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    // MARK: Running statements

    /// Runs one statement (prepared once, cached) with positional `?` arguments.
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        checkBorrower()
        lastChanges = 0
        try statement(for: sql).run(arguments) { true }
        lastChanges = Int(sqlite3_changes64(handle))
    }

    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try query(sql, arguments) { rows.append($0); return true }
        return rows
    }

    public func queryFirst(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteRow? {
        var first: SQLiteRow?
        try query(sql, arguments) { first = $0; return false }
        return first
    }

    /// Runs a query and makes one `T` of each row with `read`, which reads the row in place (see
    /// `SQLiteRowReader`): cheaper than `query`'s `SQLiteRow`s when a row becomes a value of its own.
    public func query<T>(_ sql: String, _ arguments: [SQLiteValue] = [], reading read: (SQLiteRowReader) throws -> T) throws -> [T] {
        checkBorrower()
        let statement = try statement(for: sql)
        var results: [T] = []
        try statement.run(arguments) {
            results.append(try read(SQLiteRowReader(statement)))
            return true
        }
        return results
    }

    /// As `query(_:_:reading:)`, for the first row only.
    public func queryFirst<T>(_ sql: String, _ arguments: [SQLiteValue] = [], reading read: (SQLiteRowReader) throws -> T) throws -> T? {
        checkBorrower()
        let statement = try statement(for: sql)
        var first: T?
        try statement.run(arguments) {
            first = try read(SQLiteRowReader(statement))
            return false
        }
        return first
    }

    /// Rows changed by the last `execute` (as `sqlite3_changes`: only INSERT, UPDATE and DELETE set it;
    /// other statements leave the previous count).
    public var changes: Int {
        checkBorrower()
        return lastChanges
    }

    /// The rowid of the last row an INSERT on this connection added (`sqlite3_last_insert_rowid`):
    /// read from the connection, where `SELECT last_insert_rowid()` ran a statement for it
    /// (~1.3k instructions an outbox message, callgrind).
    public var lastInsertRowid: Int64 {
        checkBorrower()
        return sqlite3_last_insert_rowid(handle)
    }

    private func query(_ sql: String, _ arguments: [SQLiteValue], onRow: (SQLiteRow) -> Bool) throws {
        checkBorrower()
        let statement = try statement(for: sql)
        try statement.run(arguments) {
            let columns = statement.columns
            return onRow(SQLiteRow(columns: columns, values: statement.currentRow(columnCount: columns.names.count)))
        }
    }

    private func statement(for sql: String) throws -> SQLiteStatement {
        let statement = try cachedStatement(for: sql)
        if refusesWrites && !statement.isReadOnly {
            throw SQLiteError(code: 8, message: "attempt to write in a read transaction", sql: sql)  // SQLITE_READONLY
        }
        return statement
    }

    private func cachedStatement(for sql: String) throws -> SQLiteStatement {
        let address = sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
        let slot = Int((address >> 4) % UInt(Self.recentStatementSlots))
        if let recent = recentStatements[slot], recent.address == address, recent.statement.sql == sql {
            return recent.statement
        }
        let statement = try dictionaryStatement(for: sql)
        recentStatements[slot] = RecentStatement(address: address, statement: statement)
        return statement
    }

    private func dictionaryStatement(for sql: String) throws -> SQLiteStatement {
        let key = StatementKey(sql)
        if let cached = statements[key] { return cached }
        let statement = try SQLiteStatement.prepare(sql, database: handle)
        if statements.count >= Self.statementCacheLimit {
            statements.removeAll()
            recentStatements = [RecentStatement?](repeating: nil, count: Self.recentStatementSlots)
        }
        statements[key] = statement
        return statement
    }

    /// Runs SQL that may hold several statements (migrations, setup pragmas); nothing is cached.
    func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, database: handle, sql: sql)
            throw SQLiteError(code: code, message: message.map { String(cString: $0) } ?? error.message, sql: sql)
        }
    }

    // MARK: Lending and transactions

    /// Runs `hook` after this write transaction commits, once the writer lock is released (so it
    /// may read the store, and wakes others only when the data is durable); never on rollback.
    public func afterCommit(_ hook: @escaping () -> Void) {
        checkBorrower()
        precondition(!refusesWrites, "afterCommit belongs in a write transaction")
        commitHooks.append(hook)
    }

    /// The hooks of the transaction that just committed, handed over once.
    func takeCommittedHooks() -> [() -> Void] {
        defer { committedHooks = [] }
        return committedHooks
    }

    /// Lends the connection to the calling thread for the duration of `body`.
    func lend<T>(readOnly: Bool, _ body: (SQLiteConnection) throws -> T) rethrows -> T {
        borrower = currentThreadID()
        refusesWrites = readOnly
        defer {
            borrower = nil
            refusesWrites = false
        }
        return try body(self)
    }

    /// Runs `body` between `begin` and COMMIT; on any error rolls back and rethrows that error.
    /// `beforeCommit` runs right before COMMIT; when it throws, the transaction rolls back.
    func transaction<T>(
        begin: String, readOnly: Bool = false, beforeCommit: () throws -> Void = {},
        _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        try lend(readOnly: readOnly) { connection in
            try execute(begin)
            commitHooks = []
            do {
                let result = try body(connection)
                try beforeCommit()
                try execute("COMMIT")
                committedHooks = commitHooks
                commitHooks = []
                return result
            } catch {
                commitHooks = []
                // Some errors (e.g. SQLITE_FULL) already rolled back; then there is nothing to undo.
                if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
                throw error
            }
        }
    }

    private func checkBorrower() {
        precondition(
            borrower == currentThreadID(),
            "SQLiteConnection used outside the read/write closure that lent it (or from another thread)")
    }

    /// The main database's file and its `-wal` file, as SQLite names them; nil when it has no file.
    var databaseAndLogPaths: (database: String, log: String)? {
        guard let database = sqlite3_db_filename(handle, "main"), database.pointee != 0,
            let log = sqlite3_filename_wal(database)
        else { return nil }
        return (String(cString: database), String(cString: log))
    }

    // MARK: The write-ahead log

    /// Calls `observe` on the committing thread after every commit to the write-ahead log, with the
    /// number of frames the log then holds. This replaces SQLite's automatic checkpoint, which is
    /// the same hook (`PRAGMA wal_autocheckpoint` would replace this one in turn).
    func observeLogSize(_ observe: @escaping (Int) -> Void) {
        let observer = Unmanaged.passRetained(LogSizeObserver(observe))
        sqlite3_wal_hook(handle, { context, _, _, frames in
            if let context { Unmanaged<LogSizeObserver>.fromOpaque(context).takeUnretainedValue().observe(Int(frames)) }
            return SQLITE_OK
        }, observer.toOpaque())
        logSizeObserver?.release()
        logSizeObserver = observer
    }

    /// A PASSIVE checkpoint of the main database: copies the log's frames that no reader still
    /// needs into the database file without waiting for any lock. Answers how many of the log's
    /// frames are now in the database file (frames committed while it ran are not counted in the
    /// log it saw), or nil when nothing was done: another connection was checkpointing (try
    /// later), or this one has not opened the log yet (it does on its first read).
    func checkpointPassively() throws -> Int? {
        checkBorrower()
        var logFrames: Int32 = 0
        var copiedFrames: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copiedFrames)
        if code == SQLITE_BUSY { return nil }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, database: handle, sql: nil) }
        return logFrames < 0 ? nil : Int(copiedFrames)
    }

    /// For tests: how many prepared statements are cached.
    var cachedStatementCount: Int { statements.count }
}

/// What the WAL hook calls (see `observeLogSize`).
private final class LogSizeObserver {
    let observe: (Int) -> Void
    init(_ observe: @escaping (Int) -> Void) { self.observe = observe }
}

/// A statement and where the SQL text it was last found by lives (see `recentStatements`).
private struct RecentStatement {
    let address: UInt
    let statement: SQLiteStatement
}

/// SQL text as a cache key, hashed by its length and its first and last 32 bytes instead of all
/// of it: the app's statements run to a kilobyte, and hashing every byte of each one on every
/// execution was 2% of a sign-in. Equal keys still compare the whole text.
private struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    func hash(into hasher: inout Hasher) {
        var sql = sql  // `withUTF8` is mutating; the app's SQL is native, so nothing is copied
        sql.withUTF8 { utf8 in
            hasher.combine(utf8.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8.prefix(32))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8.suffix(32))))
        }
    }

    static func == (lhs: StatementKey, rhs: StatementKey) -> Bool { lhs.sql == rhs.sql }
}

/// Belongs to the thread running the closure that was given it; never to be sent elsewhere.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
