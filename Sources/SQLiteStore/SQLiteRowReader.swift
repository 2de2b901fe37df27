/// The row a query stands on, read in place by column index: only the columns asked for are
/// copied out, straight into the caller's value, with no `SQLiteRow` (an array of every column's
/// value, each boxed as a `SQLiteValue`) made and dropped in between.
///
/// Lent to the closure of `SQLiteConnection.query(_:_:reading:)`; it reads whatever row the
/// statement stands on, so it must not be kept past that closure.
public struct SQLiteRowReader {
    private let statement: SQLiteStatement

    init(_ statement: SQLiteStatement) { self.statement = statement }

    public var columnCount: Int { statement.columnCount }

    /// `.null` past the last column, as SQLite reads it.
    public subscript(column: Int) -> SQLiteValue { statement.value(at: Int32(column)) }

    /// The text in `column`; nil when it holds anything else (as `SQLiteValue.text`).
    public func text(_ column: Int) -> String? { statement.text(at: Int32(column)) }

    /// The integer in `column`; nil when it holds anything else (as `SQLiteValue.integer`).
    public func integer(_ column: Int) -> Int64? { statement.integer(at: Int32(column)) }

    /// The integer in `column` as a flag (non-zero is true); nil when it holds no integer.
    public func bool(_ column: Int) -> Bool? { integer(column).map { $0 != 0 } }

    public func isNull(_ column: Int) -> Bool { statement.isNull(at: Int32(column)) }
}

/// Belongs to the closure it was lent to.
@available(*, unavailable)
extension SQLiteRowReader: Sendable {}
