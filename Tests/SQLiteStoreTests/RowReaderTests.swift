@testable import SQLiteStore
import Testing

@Suite struct RowReaderTests {
    /// A row read in place gives what `SQLiteRow` gives, and its typed reads are as strict as
    /// `SQLiteValue`'s (text only from TEXT, integers only from INTEGER).
    @Test(arguments: Storage.allCases)
    func aRowReadInPlaceReadsAsSQLiteRowDoes(storage: Storage) throws {
        let schema = Migration(version: 1, name: "mixed", sql: "CREATE TABLE mixed (t TEXT, i INTEGER, r REAL, b BLOB, n TEXT)")
        try withDatabase(storage, migrations: [schema]) { database in
            try database.write {
                try $0.execute("INSERT INTO mixed VALUES (?, ?, ?, ?, ?)", ["pässwörd", 42, .real(1.5), .blob([0, 1, 255]), nil])
                try $0.execute("INSERT INTO mixed VALUES (?, ?, ?, ?, ?)", ["", 0, nil, .blob([]), "12"])
            }
            let sql = "SELECT t, i, r, b, n FROM mixed ORDER BY rowid"
            let rows = try database.read { try $0.query(sql) }
            let read = try database.read { connection in
                try connection.query(sql) { row in
                    (values: (0..<row.columnCount).map { row[$0] }, text: row.text(0), integer: row.integer(1),
                     bool: row.bool(1), textOfInteger: row.text(1), integerOfText: row.integer(4), isNull: row.isNull(4))
                }
            }
            #expect(read.map(\.values) == rows.map(\.values))
            #expect(read.map(\.text) == ["pässwörd", ""])
            #expect(read.map(\.integer) == [42, 0])
            #expect(read.map(\.bool) == [true, false])
            #expect(read.map(\.textOfInteger) == [nil, nil])
            #expect(read.map(\.integerOfText) == [nil, nil])
            #expect(read.map(\.isNull) == [true, false])
            #expect(try database.read { try $0.queryFirst(sql) { $0.text(0) } } == "pässwörd")
            #expect(try database.read { try $0.queryFirst("SELECT t FROM mixed WHERE 0") { $0.text(0) } } == nil)
        }
    }

    /// The statement cache finds statements by where their text lives first; texts made at run
    /// time come and go at reused addresses, and each must still run its own SQL.
    @Test func sqlTextsMadeAtRunTimeEachRunTheirOwnStatement() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: [])
        try database.read { connection in
            for round in 0..<3 {
                for number in 0..<100 {
                    let sql = "SELECT \(number) AS value" + String(repeating: " ", count: 30 + round)
                    let value = try connection.queryFirst(sql)?[0].integer
                    #expect(value == Int64(number))
                }
            }
            // 300 texts against a cap of 256: the cache was emptied once on the way, and still answers.
            #expect(connection.cachedStatementCount <= 256)
        }
    }
}
