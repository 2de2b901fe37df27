/// One result row; columns by name or position.
public struct SQLiteRow: Sendable {
    private let columns: SQLiteColumns
    public let values: [SQLiteValue]

    public init(columnNames: [String], values: [SQLiteValue]) {
        self.init(columns: SQLiteColumns(columnNames), values: values)
    }

    init(columns: SQLiteColumns, values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    public var columnNames: [String] { columns.names }

    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// `.null` when there is no such column.
    public subscript(column: String) -> SQLiteValue {
        guard let index = columns.positions[column] else { return .null }
        return values[index]
    }
}

/// A statement's column names and where each is, made once per prepared statement and shared by
/// all its rows (rows are read by name, and a user row has two dozen columns).
final class SQLiteColumns: Sendable {
    let names: [String]
    /// The first column of each name, as SQL reads a duplicated one.
    let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
        self.positions = positions
    }
}
