import BuildInfo
#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSON

/// Writes one project's users and config in the official export layout (reference §12.2), through
/// a temporary directory that then replaces `directory`, so a failed export leaves the old one.
/// One read transaction, so the export is one snapshot; the users go out a page at a time as they
/// are read, so its memory does not grow with them (it read and encoded every user at once: a
/// 1M-user export held them all as records, as a JSON tree and as text). In memory the read keeps
/// writes out while it runs, which suits `--export-on-exit`, written once the server has stopped.
struct AccountsExporter {
    let environment: AuthEnvironment
    let projectId: String
    /// Users read and written per step.
    static let pageSize = 1000

    func export(to directory: String) throws {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        try? fileManager.removeItem(at: staging)
        do {
            let auth = staging.appendingPathComponent(ExportLayout.defaultAuthFolder)
            try fileManager.createDirectory(at: auth, withIntermediateDirectories: true)
            try ImportExportFile.write(
                ExportLayout.metadata(version: BuildInfo.version),
                to: staging.appendingPathComponent(ExportLayout.metadataFile).path)
            let config = try environment.read(in: UserScope(projectId: projectId)) { transaction in
                let tenants = try transaction.users.tenantKeys(projectId: projectId)
                // The project's own file is always written, even when it is empty.
                for tenantKey in Set(tenants + [""]).sorted() {
                    let scope = UserScope(projectId: projectId, tenantId: tenantKey.isEmpty ? nil : tenantKey)
                    let path = auth.appendingPathComponent(ExportLayout.accountsFile(tenantKey: tenantKey)).path
                    try Self.writeAccounts(of: scope, from: transaction.users, to: path)
                }
                return try transaction.config().emulatorJSON
            }
            try ImportExportFile.write(config, to: auth.appendingPathComponent(ExportLayout.configFile).path)
            if fileManager.fileExists(atPath: target.path) { try fileManager.removeItem(at: target) }
            try fileManager.moveItem(at: staging, to: target)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error as? ImportExportError ?? ImportExportError("cannot export to \(directory): \(error)")
        }
    }

    /// The scope's users as `accounts:batchGet?maxResults=-1` answers them (pretty-printed, each
    /// user an `entry`), written page by page.
    static func writeAccounts(of scope: UserScope, from users: UserRepository, to path: String) throws {
        let file = try OutputFile(path)
        var json = JSONStreamWriter(indent: 2, capacity: 1 << 20)
        json.beginObject()
        json.key("kind")
        json.string("identitytoolkit#DownloadAccountResponse")
        json.key("users")
        json.beginArray()
        var after: String?
        while true {
            let page = try users.users(in: scope, afterLocalId: after, limit: pageSize)
            for user in page { json.value(.object(entry(user))) }
            try json.flush(file.write)
            guard page.count == pageSize, let last = page.last else { break }
            after = last.localId
        }
        json.endArray()
        json.endObject()
        try json.flush(file.write)
        try file.close()
    }

    /// A user as exported. One whose hash was imported with a production algorithm also carries
    /// its parameters under `authEmulatorPasswordHash`, so that importing the file back keeps the
    /// password working (the official emulator ignores the key).
    private static func entry(_ user: UserRecord) -> JSONObject {
        var object = user.json
        if let hash = user.importedPasswordHash, user.passwordHash != nil {
            object[ImportedUser.hashExtensionKey] = .object(hash.json)
        }
        return object
    }
}

/// A file written from the start, in pieces (C stdio: FoundationEssentials has no FileHandle).
private final class OutputFile {
    private var stream: UnsafeMutablePointer<FILE>?
    private let path: String

    init(_ path: String) throws {
        self.path = path
        guard let stream = fopen(path, "w") else { throw ImportExportError("cannot write \(path)") }
        self.stream = stream
    }

    deinit { if let stream { fclose(stream) } }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard fwrite(base, 1, bytes.count, stream) == bytes.count else { throw ImportExportError("cannot write \(path)") }
    }

    func close() throws {
        let stream = self.stream
        self.stream = nil
        guard fclose(stream) == 0 else { throw ImportExportError("cannot write \(path)") }
    }
}
