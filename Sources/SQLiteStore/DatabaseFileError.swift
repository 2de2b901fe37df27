/// Why a database file cannot be used, in the file's terms rather than SQLite's result codes
/// (SQLite says "unable to open database file" for a missing folder and for a folder alike).
public struct DatabaseFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Error, Equatable, Sendable {
        /// The folder the file would be in does not exist.
        case missingFolder(String)
        /// Part of the path is a file where a folder should be.
        case notAFolder(String)
        /// The path itself is a folder.
        case isAFolder
        /// The file is there but cannot be opened (why, in the system's words).
        case unreadable(String)
        /// The file is not there and cannot be made in its folder (why, in the system's words).
        case cannotCreate(folder: String, reason: String)
        /// Not an SQLite database at all.
        case notADatabase
        /// An SQLite database that these migrations did not make (its tables, so a person knows it).
        case foreignDatabase(tables: [String])
        /// Made by these migrations, but with steps this build does not know: a newer build wrote it.
        case newerSchema(unknownVersions: [Int], newestKnown: Int)
        /// Another process (or another database object in this one) holds the file's lock.
        case inUse(DatabaseFileLock.Holder?)
    }

    public let path: String
    public let problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .missingFolder(let folder): "\(path): the folder \(folder) does not exist"
        case .notAFolder(let part): "\(path): \(part) is not a folder"
        case .isAFolder: "\(path) is a folder, not a file"
        case .unreadable(let reason): "\(path) cannot be opened: \(reason)"
        case .cannotCreate(let folder, let reason): "\(path) cannot be created in \(folder): \(reason)"
        case .notADatabase: "\(path) is not an SQLite database"
        case .foreignDatabase(let tables):
            "\(path) is an SQLite database that these migrations did not make (tables: \(tables.joined(separator: ", ")))"
        case .newerSchema(let unknown, let newest):
            "\(path) has migration(s) \(unknown) that this build does not know (newest known: \(newest))"
        case .inUse(let holder): "\(path) is in use by \(holder.map { "pid \($0.processId) (started \($0.started))" } ?? "another process")"
        }
    }
}
