import BuildInfo
import SQLiteStore

/// Why the emulator could not start, in the user's terms and with what to do about it: the
/// command line prints it as it is.
public struct StartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The `--data` file's problem, when that is what stopped the start (`export` words it its own way).
    let dataFileProblem: DatabaseFileError?

    init(_ description: String) {
        self.description = description
        dataFileProblem = nil
    }

    init(dataFile problem: DatabaseFileError) {
        description = DataFileMessage.text(for: problem, command: .serve)
        dataFileProblem = problem
    }
}

/// What is wrong with a `--data` file, and what to do.
enum DataFileMessage {
    /// What the file was given for: the emulator, or `auth-emulator export`.
    enum Command { case serve, export }

    static func text(for error: DatabaseFileError, command: Command) -> String {
        let flag = command == .serve ? "--data" : "export --data"
        let path = error.path
        switch error.problem {
        case .missingFolder(let folder):
            return "\(flag) \(path): the folder \(folder) does not exist; create it (mkdir -p \(folder)) "
                + "or give a file in a folder that exists"
        case .notAFolder(let part):
            return "\(flag) \(path): \(part) is a file, not a folder; give a path whose folders exist"
        case .isAFolder:
            return "\(flag) \(path) is a folder; give a file in it, e.g. \(flag) \(path.hasSuffix("/") ? path : path + "/")auth.db"
        case .unreadable(let reason):
            return "\(flag) \(path) cannot be opened (\(reason)); check its permissions or give another file"
        case .cannotCreate(let folder, let reason):
            return "\(flag) \(path) cannot be created in \(folder) (\(reason)); give a file in a folder you can write"
        case .notADatabase:
            return "\(flag) \(path) is not an auth-emulator database (it is not an SQLite file at all); "
                + "give a new file name for a fresh database, or a file that an earlier --data run wrote"
        case .foreignDatabase(let tables):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return "\(flag) \(path) is an SQLite database, but not an auth-emulator one (its tables: \(shown)); "
                + "it was left as it was: give a new file name, or a file that an earlier --data run wrote"
        case .newerSchema(let unknown, let newest):
            return "\(flag) \(path) was written by a newer auth-emulator (its schema has step(s) "
                + "\(unknown.map(String.init).joined(separator: ", ")); this \(BuildInfo.version) knows up to "
                + "\(newest)); it was left as it was: run that newer version on it, or give another file"
        case .inUse(let holder):
            let who = holder.map { "auth-emulator pid \($0.processId) (started \($0.started))" } ?? "another auth-emulator"
            switch command {
            case .serve: return "\(path) is in use by \(who); stop it or use another --data file"
            case .export:
                let stop = holder.map { "stop it (kill \($0.processId))" } ?? "stop it"
                return "\(path) is in use by \(who); \(stop), then export; "
                    + "or start it with --export-on-exit DIR to export as it stops"
            }
        }
    }
}
