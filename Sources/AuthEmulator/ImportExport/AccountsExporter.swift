import BuildInfo
#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// Writes one project's users and config in the official export layout (reference §12.2), through
/// a temporary directory that then replaces `directory`, so a failed export leaves the old one.
struct AccountsExporter {
    let environment: AuthEnvironment
    let projectId: String

    func export(to directory: String) throws {
        let snapshot = try environment.read(in: UserScope(projectId: projectId)) { transaction in
            let tenants = try transaction.users.tenantKeys(projectId: projectId)
            var files: [(String, JSONObject)] = []
            // The project's own file is always written, even when it is empty.
            for tenantKey in Set(tenants + [""]).sorted() {
                let scope = UserScope(projectId: projectId, tenantId: tenantKey.isEmpty ? nil : tenantKey)
                let users = try transaction.users.users(in: scope, afterLocalId: nil, limit: nil)
                files.append((ExportLayout.accountsFile(tenantKey: tenantKey), Self.accountsDocument(users)))
            }
            return (files: files, config: try transaction.config().emulatorJSON)
        }
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
            for (name, document) in snapshot.files {
                try ImportExportFile.write(document, to: auth.appendingPathComponent(name).path)
            }
            try ImportExportFile.write(snapshot.config, to: auth.appendingPathComponent(ExportLayout.configFile).path)
            if fileManager.fileExists(atPath: target.path) { try fileManager.removeItem(at: target) }
            try fileManager.moveItem(at: staging, to: target)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error as? ImportExportError ?? ImportExportError("cannot export to \(directory): \(error)")
        }
    }

    /// `accounts:batchGet?maxResults=-1`'s body. A user whose hash was imported with a production
    /// algorithm also carries its parameters under `authEmulatorPasswordHash`, so that importing
    /// the file back keeps the password working (the official emulator ignores the key).
    static func accountsDocument(_ users: [UserRecord]) -> JSONObject {
        let entries: [JSONValue] = users.map { user in
            var object = user.json
            if let hash = user.importedPasswordHash, user.passwordHash != nil {
                object[ImportedUser.hashExtensionKey] = .object(hash.json)
            }
            return .object(object)
        }
        return ["kind": "identitytoolkit#DownloadAccountResponse", "users": .array(entries)]
    }
}
