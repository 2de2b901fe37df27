// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.

public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }

    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }

    public var text: String? { if case .text(let value) = self { return value }; return nil }
    public var integer: Int64? { if case .integer(let value) = self { return value }; return nil }
    public var bool: Bool? { integer.map { $0 != 0 } }
    public var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
    public var blob: [UInt8]? { if case .blob(let value) = self { return value }; return nil }
}

/// One result row; columns by name or position.
public struct SQLiteRow: Sendable {
    public let columnNames: [String]
    public let values: [SQLiteValue]

    public init(columnNames: [String], values: [SQLiteValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// `.null` when there is no such column.
    public subscript(column: String) -> SQLiteValue {
        guard let index = columnNames.firstIndex(of: column) else { return .null }
        return values[index]
    }
}

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

/// A schema step. Steps run in `version` order, each in its own transaction, once per database.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// A connection lent to a `read` or `write` closure. Do not keep it past the closure.
public final class SQLiteConnection {
    /// Runs one statement (prepared once, cached) with positional `?` arguments.
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        fatalError("SQLiteStore is not built yet")
    }

    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteRow] {
        fatalError("SQLiteStore is not built yet")
    }

    public func queryFirst(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteRow? {
        fatalError("SQLiteStore is not built yet")
    }

    /// Rows changed by the last `execute`.
    public var changes: Int { fatalError("SQLiteStore is not built yet") }
}

/// The database: WAL, foreign keys on, migrations applied at open. Writes are serialised and
/// each `write` is one transaction that is committed before it returns.
public final class SQLiteDatabase: @unchecked Sendable {
    public enum Location: Sendable, Equatable {
        case inMemory
        case file(String)
    }

    public init(location: Location, migrations: [Migration]) throws {
        fatalError("SQLiteStore is not built yet")
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`); commits when it returns, rolls back
    /// when it throws (and rethrows).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        fatalError("SQLiteStore is not built yet")
    }

    /// Runs `body` in a read transaction that sees one consistent snapshot.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        fatalError("SQLiteStore is not built yet")
    }

    /// The highest migration version applied.
    public var schemaVersion: Int { fatalError("SQLiteStore is not built yet") }
}
