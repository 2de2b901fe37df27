internal import CSQLite

/// One prepared statement, owned here and finalized when this object goes.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer  // sqlite3_stmt*

    private init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Prepares exactly one statement for repeated use; more than one statement in `sql` is an error.
    static func prepare(_ sql: String, database: OpaquePointer) throws -> SQLiteStatement {
        var handle: OpaquePointer?
        let (code, hasMoreSQL) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
            let code = sqlite3_prepare_v3(database, text, -1, flags, &handle, &tail)
            guard code == SQLITE_OK, let tail, tail.pointee != 0 else { return (code, false) }
            return (code, containsStatement(tail, database: database))
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, database: database, sql: sql) }
        guard let handle else { throw SQLiteError.misuse("no SQL statement to run", sql: sql) }
        guard !hasMoreSQL else {
            sqlite3_finalize(handle)
            throw SQLiteError.misuse("execute/query run one statement; this SQL holds more", sql: sql)
        }
        return SQLiteStatement(handle: handle, sql: sql)
    }

    /// Whether `text` holds anything but whitespace and comments (or fails to parse).
    private static func containsStatement(_ text: UnsafePointer<CChar>, database: OpaquePointer) -> Bool {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(database, text, -1, &handle, nil)
        sqlite3_finalize(handle)
        return code != SQLITE_OK || handle != nil
    }

    /// True when running it cannot change the database (also for BEGIN and COMMIT).
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Binds `arguments`, steps, and calls `onRow` for each row until it returns false or the rows
    /// end. The statement is always reset and its bindings cleared afterwards, ready for reuse.
    func run(_ arguments: [SQLiteValue], onRow: () throws -> Bool) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments)
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW: if try !onRow() { return }
            case SQLITE_DONE: return
            default: throw SQLiteError(code: code, database: sqlite3_db_handle(handle), sql: sql)
            }
        }
    }

    /// Column names of the current row (read per run: a schema change may recompile the statement).
    /// The result columns, read from SQLite once rather than per query. A schema change can
    /// re-prepare the statement with other columns (`SELECT *` after `ALTER TABLE`), so a count
    /// that no longer matches reads them again.
    var columns: SQLiteColumns {
        let count = Int(sqlite3_column_count(handle))
        if let cachedColumns, cachedColumns.names.count == count { return cachedColumns }
        let columns = SQLiteColumns(
            (0..<Int32(count)).map { index in sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "" })
        cachedColumns = columns
        return columns
    }
    private var cachedColumns: SQLiteColumns?

    func currentRow(columnCount: Int) -> [SQLiteValue] {
        (0..<Int32(columnCount)).map(value(at:))
    }

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(handle, column)  // before _bytes, as SQLite advises
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
        default:
            return .null
        }
    }

    /// The current row's column as text, nil unless SQLite holds TEXT there (as `value(at:).text`).
    func text(at column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return nil }
        let bytes = sqlite3_column_text(handle, column)  // before _bytes, as SQLite advises
        let count = Int(sqlite3_column_bytes(handle, column))
        return bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
    }

    /// The current row's column as an integer, nil unless SQLite holds INTEGER there (as `value(at:).integer`).
    func integer(at column: Int32) -> Int64? {
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(handle, column)
    }

    /// Whether the current row's column is NULL.
    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    private func bind(_ arguments: [SQLiteValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "statement takes \(expected) arguments, got \(arguments.count)", sql: sql)
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                // withCString always yields a pointer (a NULL one would bind SQL NULL, not '').
                code = text.withCString {
                    sqlite3_bind_text64(handle, index, $0, UInt64(text.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes) where bytes.isEmpty:
                code = sqlite3_bind_zeroblob(handle, index, 0)  // a NULL pointer would bind SQL NULL
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, database: sqlite3_db_handle(handle), sql: sql) }
        }
    }
}
