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
