import SQLiteStore

/// Emulator-wide values that outlive a restart with `--data`.
struct EmulatorStateRepository {
    let connection: SQLiteConnection

    func clockOffset() throws -> Int64 {
        let row = try connection.queryFirst("SELECT value FROM emulator_state WHERE name = 'clock_offset_ms'")
        return row?[0].text.flatMap { Int64($0) } ?? 0
    }

    func setClockOffset(_ milliseconds: Int64) throws {
        try connection.execute(
            """
            INSERT INTO emulator_state (name, value) VALUES ('clock_offset_ms', ?)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """, [.text(String(milliseconds))])
    }
}
