import SQLiteStore
import Testing

@Suite struct ValueTests {
    static let values: [SQLiteValue] = [
        .null,
        .integer(0), .integer(-1), .integer(Int64.max), .integer(Int64.min),
        .real(3.141592653589793), .real(-0.5), .real(1e308), .real(.leastNonzeroMagnitude),
        .text(""), .text("plain"), .text("héllo wörld — 日本語 👩🏽‍💻 🇫🇷"), .text("line\nbreak\ttab 'quote' \"dq\""),
        .blob([]), .blob([0, 1, 2, 255, 0]), .blob(Array(repeating: 0xAB, count: 100_000)),
    ]

    @Test(arguments: Storage.allCases)
    func everyValueTypeRoundTrips(_ storage: Storage) throws {
        let schema = Migration(version: 1, name: "values", sql: "CREATE TABLE v (position INTEGER PRIMARY KEY, value)")
        try withDatabase(storage, migrations: [schema]) { database in
            try database.write { connection in
                for (position, value) in Self.values.enumerated() {
                    try connection.execute("INSERT INTO v VALUES (?, ?)", [.integer(Int64(position)), value])
                }
            }
            let rows = try database.read { try $0.query("SELECT value, typeof(value) AS type FROM v ORDER BY position") }
            #expect(rows.map { $0["value"] } == Self.values)
            #expect(rows[0]["type"] == "null")
            #expect(rows[1]["type"] == "integer")
            #expect(rows[5]["type"] == "real")
            #expect(rows[9]["type"] == "text")  // empty text stays text, not NULL
            #expect(rows[13]["type"] == "blob")  // empty blob stays blob, not NULL
        }
    }

    @Test func rowsExposeColumnsByNameAndPosition() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: [])
        let row = try database.read { try $0.queryFirst("SELECT 1 AS one, 'two' AS two") }
        #expect(row?.columnNames == ["one", "two"])
        #expect(row?[0] == 1)
        #expect(row?["two"] == "two")
        #expect(row?["missing"] == .null)
        #expect(try database.read { try $0.queryFirst("SELECT 1 WHERE 0") } == nil)
    }

    @Test func initializersAndLiteralsPickTheExpectedCase() {
        let int = 3
        let missing: String? = nil
        #expect(SQLiteValue(5) == .integer(5))
        #expect(SQLiteValue("a") == .text("a"))
        #expect(SQLiteValue(nil) == .null)
        #expect(SQLiteValue(true) == .integer(1))
        #expect(SQLiteValue(2.5) == .real(2.5))
        #expect(SQLiteValue(int) == .integer(3))
        #expect(SQLiteValue(Int64(4)) == .integer(4))
        #expect(SQLiteValue(missing) == .null)
        #expect(SQLiteValue([UInt8]([1, 2])) == .blob([1, 2]))
        let arguments: [SQLiteValue] = ["a", 1, nil, false]
        #expect(arguments == [.text("a"), .integer(1), .null, .integer(0)])
        #expect(SQLiteValue.integer(1).bool == true)
        #expect(SQLiteValue.integer(2).real == 2)
    }
}
