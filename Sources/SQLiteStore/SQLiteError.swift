internal import CSQLite

public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code from SQLite.
    public let code: Int32
    public let message: String
    /// The statement, never its arguments (they may hold passwords and tokens).
    public let sql: String?

    public init(code: Int32, message: String, sql: String?) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " in \($0)" } ?? "")
    }

    /// True for UNIQUE, FOREIGN KEY, CHECK and NOT NULL violations.
    public var isConstraintViolation: Bool { code & 0xFF == 19 }
}

extension SQLiteError {
    /// The error SQLite just reported on `database` (its message; `code` as the call returned it).
    init(code: Int32, database: OpaquePointer?, sql: String?) {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, sql: sql)
    }

    /// A misuse this module catches before SQLite would.
    static func misuse(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: message, sql: sql)
    }
}
