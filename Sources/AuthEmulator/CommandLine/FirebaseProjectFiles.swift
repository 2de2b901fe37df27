#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// firebase.json and .firebaserc, found as the Firebase CLI finds them (firebase-tools
/// `detectProjectRoot`, `loadRC`): `--config FILE`, else the first firebase.json in the working
/// directory or one of its parents; .firebaserc in that file's directory, else in the working
/// directory. A file that is there but malformed (not JSON, a key of the wrong type) is an error
/// naming the file and the key: the Firebase CLI only warns about a malformed .firebaserc, and
/// logs a wrongly typed firebase.json key at debug level.
struct FirebaseProjectFiles {
    var firebaseJSON: FirebaseJSON?
    var firebaserc: Firebaserc?

    static func find(workingDirectory: String?, configFile: String?) throws(CommandLineOptions.UsageError) -> FirebaseProjectFiles {
        let base = workingDirectory ?? FileManager.default.currentDirectoryPath
        var configPath: String?
        if let configFile {
            let path = FilePath.resolve(configFile, against: base)
            guard FilePath.isFile(path) else { throw .init("--config: no file at \(path)") }
            configPath = path
        } else if workingDirectory != nil {
            configPath = FilePath.ancestors(of: base).lazy.map { FilePath.join($0, "firebase.json") }.first(where: FilePath.isFile)
        }
        guard configPath != nil || workingDirectory != nil else { return FirebaseProjectFiles() }
        let rcPath = FilePath.join(configPath.map(FilePath.parent) ?? base, ".firebaserc")
        return FirebaseProjectFiles(
            firebaseJSON: try configPath.map(FirebaseJSON.init(path:)),
            firebaserc: FilePath.isFile(rcPath) ? try Firebaserc(path: rcPath) : nil)
    }

    /// A project id and where it came from: the file and key when a file named it.
    struct ChosenProject {
        let id: String
        let origin: String
        var file: (path: String, key: String)?
    }

    /// The project: `--project`'s value (an id, or an alias .firebaserc resolves), else what
    /// .firebaserc makes the default (its only alias, else `default`), as the Firebase CLI
    /// chooses; nil when neither names one.
    func project(named flag: String?) -> ChosenProject? {
        if let flag {
            guard let rc = firebaserc, let id = rc.projects[flag] else { return ChosenProject(id: flag, origin: "--project") }
            return ChosenProject(id: id, origin: "--project \(flag), an alias in \(rc.path)", file: (rc.path, "projects.\(flag)"))
        }
        guard let rc = firebaserc else { return nil }
        guard let alias = rc.projects.count == 1 ? rc.projects.keys.first : rc.projects["default"] != nil ? "default" : nil else { return nil }
        return ChosenProject(id: rc.projects[alias]!, origin: "\(rc.path) projects.\(alias)", file: (rc.path, "projects.\(alias)"))
    }
}

/// The parts of firebase.json the emulator reads: `emulators.auth.host` and `.port`.
struct FirebaseJSON {
    struct AuthSettings {
        let path: String
        var host: String?
        var port: UInt16?

        func origin(_ key: String) -> String { "\(path) emulators.auth.\(key)" }
    }

    let authEmulator: AuthSettings

    init(path: String) throws(CommandLineOptions.UsageError) {
        let file = try ConfigurationFile(path: path)
        var settings = AuthSettings(path: path)
        var auth: JSONObject?
        if let emulators = try file.object(file.root, at: "emulators") { auth = try file.object(emulators, at: "emulators.auth") }
        if let host = auth?["host"] {
            guard let text = host.stringValue, !text.isEmpty else {
                throw file.error("emulators.auth.host must be a host name or address, as a string, not \(ConfigurationFile.describe(host))")
            }
            settings.host = text
        }
        if let port = auth?["port"] {
            // The Firebase CLI takes a number or a string of digits (parseInt).
            guard let number = port.int64Value ?? port.stringValue.flatMap({ Int64($0) }), let valid = UInt16(exactly: number) else {
                throw file.error("emulators.auth.port must be a port number, 0…65535, not \(ConfigurationFile.describe(port))")
            }
            settings.port = valid
        }
        authEmulator = settings
    }
}

/// .firebaserc's project aliases (`projects`: alias → project id), as `firebase use` writes them.
struct Firebaserc {
    let path: String
    let projects: [String: String]

    init(path: String) throws(CommandLineOptions.UsageError) {
        let file = try ConfigurationFile(path: path)
        self.path = path
        var projects: [String: String] = [:]
        for (alias, id) in try file.object(file.root, at: "projects")?.members ?? [] {
            guard let id = id.stringValue else {
                throw file.error("projects.\(alias) must be a project id, as a string, not \(ConfigurationFile.describe(id))")
            }
            projects[alias] = id
        }
        self.projects = projects
    }

}

/// A JSON configuration file as the Firebase CLI reads it (cjson): comments allowed, an empty
/// file is `{}`. Errors name the file and, for a bad value, the key.
struct ConfigurationFile {
    let path: String
    let root: JSONObject

    init(path: String) throws(CommandLineOptions.UsageError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { throw .init("\(path): cannot be read") }
        let bytes = JSONComments.blanked(Array(data))
        guard !bytes.isEmpty else {
            root = JSONObject()
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            let (line, column) = Self.lineAndColumn(of: error.offset, in: bytes)
            throw .init("\(path): not valid JSON: \(error.reason) at line \(line), column \(column)")
        }
        guard let object = value.objectValue else { throw .init("\(path) must hold a JSON object, not \(Self.describe(value))") }
        root = object
    }

    /// The member `key` (its whole dotted name, for errors) of `parent`, when there is one: an object or an error.
    func object(_ parent: JSONObject, at key: String) throws(CommandLineOptions.UsageError) -> JSONObject? {
        guard let value = parent[String(key.split(separator: ".").last!)] else { return nil }
        guard let object = value.objectValue else { throw error("\(key) must be an object, not \(Self.describe(value))") }
        return object
    }

    func error(_ message: String) -> CommandLineOptions.UsageError { .init("\(path): \(message)") }

    /// A value as an error message quotes it: `"abc"`, `9099.5`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .int, .double, .string: value.compactString
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let before = bytes.prefix(offset)
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }
}

/// Paths as the Firebase CLI resolves them, on plain strings.
enum FilePath {
    static func resolve(_ path: String, against base: String) -> String {
        path.hasPrefix("/") ? path : join(base, path)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `directory`, then each parent up to `/`.
    static func ancestors(of directory: String) -> [String] {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        var all = [trimmed]
        while let last = all.last, last != "/", last != "." { all.append(parent(of: last)) }
        return all
    }

    static func isFile(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) && !ImportExportFile.isDirectory(path)
    }
}
