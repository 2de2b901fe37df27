import SQLiteStore

/// A write the database file could not take: a full disk, a read-only file or mount, an I/O error,
/// or a lock held past the busy timeout. The transaction rolled back, so nothing was written; the
/// client gets a clear, Google-shaped 503 and reads go on working.
enum StorageFailure {
    // SQLite's primary result codes (the low byte of an extended code).
    private static let busy: Int32 = 5, readOnly: Int32 = 8, ioError: Int32 = 10, full: Int32 = 13, cannotOpen: Int32 = 14

    /// The client's error for a storage failure; nil for any other SQLite error (a bug: 500).
    static func error(for failure: SQLiteError) -> AuthError? {
        let why: String
        switch failure.code & 0xFF {
        case full: why = "its database file is full (no space left on the disk)"
        case readOnly: why = "its database file is read-only"
        case ioError, cannotOpen: why = "it could not write its database file (an I/O error)"
        case busy: why = "its database was locked by another process for too long"
        default: return nil
        }
        return AuthError(
            httpStatus: 503, message: "UNAVAILABLE : The emulator could not save this change: \(why). Nothing was written; reads still work.",
            reason: "backendError", status: "UNAVAILABLE")
    }
}
