internal import CSQLite

extension SQLiteDatabase {
    /// The version of the SQLite library linked at run time (`3.40.1`).
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
