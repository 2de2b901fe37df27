#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// The official emulator's export directory (reference §12.2): `firebase-export-metadata.json`
/// naming the auth folder, and in it `accounts.json`, `accounts-<tenantId>.json` and `config.json`.
enum ExportLayout {
    static let metadataFile = "firebase-export-metadata.json"
    static let defaultAuthFolder = "auth_export"
    static let configFile = "config.json"

    static func accountsFile(tenantKey: String) -> String {
        tenantKey.isEmpty ? "accounts.json" : "accounts-\(tenantKey).json"
    }

    /// The tenant an accounts file is for: its name without `accounts-`/`accounts` and `.json`
    /// (empty for `accounts.json`), as the official import derives it.
    static func tenantKey(accountsFile name: String) -> String {
        var stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if stem.hasPrefix("accounts-") {
            stem.removeFirst("accounts-".count)
        } else if stem.hasPrefix("accounts") {
            stem.removeFirst("accounts".count)
        }
        return stem
    }

    static func metadata(version: String) -> JSONObject {
        ["version": .string(version), "auth": ["version": .string(version), "path": .string(defaultAuthFolder)]]
    }

    /// The folder holding the auth files: the metadata's `auth.path`, else `auth_export` when it
    /// exists, else the directory itself (a bare folder of account files).
    static func authFolder(in directory: String) throws -> String {
        let base = URL(fileURLWithPath: directory)
        let metadataURL = base.appendingPathComponent(metadataFile)
        if FileManager.default.fileExists(atPath: metadataURL.path) {
            let metadata = try ImportExportFile.readObject(metadataURL.path)
            if let path = metadata["auth"]?["path"]?.stringValue, !path.isEmpty {
                return base.appendingPathComponent(path).path
            }
        }
        let folder = base.appendingPathComponent(defaultAuthFolder)
        if ImportExportFile.isDirectory(folder.path) { return folder.path }
        return base.path
    }
}

/// Why an import or export failed, for the command line to print.
public struct ImportExportError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

enum ImportExportFile {
    /// Whether `path` is a directory (or a link to one).
    static func isDirectory(_ path: String) -> Bool {
        #if canImport(FoundationEssentials)
        var isDirectory = false
        #else
        var isDirectory: ObjCBool = false  // Apple's Foundation: an Objective-C BOOL
        #endif
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && Bool(isDirectory)
    }

    static func readObject(_ path: String) throws -> JSONObject {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = isDirectory(path) ? "it is a folder"
                : FileManager.default.isReadableFile(atPath: path) ? "it could not be read" : "it is not readable: check its permissions"
            throw ImportExportError("cannot read \(path) (\(why))")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(data))
        } catch {
            throw ImportExportError("\(path) is not a JSON object (not JSON: \(error))")
        }
        guard let object = value.objectValue else { throw ImportExportError("\(path) is not a JSON object") }
        return object
    }

    static func write(_ object: JSONObject, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(JSONValue.object(object).prettyEncoded())) else {
            throw ImportExportError("cannot write \(path)")
        }
    }
}
