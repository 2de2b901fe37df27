#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// Loads an official-format export (reference §12.3) into one project, through the same
/// `accounts:batchCreate` and config helpers the routes use. Existing data is kept, as in the
/// reference emulator. Every file is read and checked before anything is written, so an export
/// that cannot be read stops the start with nothing imported.
struct AccountsImporter {
    let environment: AuthEnvironment
    let projectId: String

    /// An export's files, read and parsed, not yet written.
    struct Documents {
        fileprivate var config: (path: String, allowDuplicateEmails: Bool?, improvedPrivacy: Bool?)?
        fileprivate var accounts: [(path: String, tenantKey: String, body: RequestBody)] = []
    }

    /// Reads every file the import of `directory` would write; throws, with nothing written, when
    /// the folder or a file in it cannot be read or is not what an export holds.
    func read(_ directory: String) throws -> Documents {
        guard FileManager.default.fileExists(atPath: directory) else {
            throw ImportExportError(
                "--import \(directory): no such folder; give the folder an export wrote (firebase emulators:export, "
                    + "or --export-on-exit): it holds firebase-export-metadata.json or auth_export/")
        }
        guard ImportExportFile.isDirectory(directory) else {
            throw ImportExportError("--import \(directory) is a file, not a folder; give the folder that holds the export")
        }
        let folder: String
        do {
            folder = try ExportLayout.authFolder(in: directory)  // reads the metadata file, if any
        } catch {
            throw ImportExportError("--import: \(error)")
        }
        var documents = Documents()
        let configPath = URL(fileURLWithPath: folder).appendingPathComponent(ExportLayout.configFile).path
        if FileManager.default.fileExists(atPath: configPath) {
            let body = try Self.requestBody(configPath)
            let allowDuplicateEmails: Bool?, improvedPrivacy: Bool?
            do {
                allowDuplicateEmails = try body.nested("signIn")?.bool("allowDuplicateEmails")
                improvedPrivacy = try body.nested("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy")
            } catch {
                throw ImportExportError("Error during Auth Emulator import: \(configPath): \(error.message)")
            }
            documents.config = (configPath, allowDuplicateEmails, improvedPrivacy)
        } else {
            environment.logger.warning("Skipped importing config because \(configPath) does not exist.")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.contains("accounts") && name.hasSuffix(".json") {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            documents.accounts.append((path, ExportLayout.tenantKey(accountsFile: name), try Self.requestBody(path)))
        }
        return documents
    }

    /// One file of the export as a request body; its error names the flag.
    private static func requestBody(_ path: String) throws -> RequestBody {
        do {
            return RequestBody(RequestBody.camelCased(try ImportExportFile.readObject(path)))
        } catch {
            throw ImportExportError("--import: \(error)")
        }
    }

    /// Writes what `read` found; the number of users written (entries the batch refused are
    /// logged and skipped).
    func write(_ documents: Documents) throws -> Int {
        if let config = documents.config {
            do {
                try environment.write(in: UserScope(projectId: projectId), isPrivileged: true) { transaction in
                    var current = try transaction.config()
                    current.allowDuplicateEmails = config.allowDuplicateEmails ?? current.allowDuplicateEmails
                    current.improvedEmailPrivacy = config.improvedPrivacy ?? current.improvedEmailPrivacy
                    try environment.projectConfigs.save(current, for: projectId, store: transaction.store)
                }
            } catch let error as AuthError {
                throw ImportExportError("Error during Auth Emulator import: \(config.path): \(error.message)")
            }
        }
        var imported = 0
        for file in documents.accounts {
            imported += try importAccounts(file.body, from: file.path, tenantKey: file.tenantKey)
        }
        return imported
    }

    private func importAccounts(_ body: RequestBody, from path: String, tenantKey: String) throws -> Int {
        let scope = UserScope(projectId: projectId, tenantId: tenantKey.isEmpty ? nil : tenantKey)
        let sent = body.object["users"]?.arrayValue?.count ?? 0
        let response: JSONObject
        do {
            response = try BatchCreate.run(body, in: scope, environment: environment)
        } catch let error as AuthError where error.message == "MISSING_USER_ACCOUNT" {
            return 0
        } catch let error as AuthError {
            throw ImportExportError("Error during Auth Emulator import: \(path): \(error.message)")
        }
        let errors = response["error"]?.arrayValue ?? []
        for error in errors {
            let index = error["index"]?.int64Value.map(String.init) ?? "?"
            environment.logger.warning("Skipped importing user \(index) of \(path): \(error["message"]?.stringValue ?? "")")
        }
        return sent - errors.count
    }
}
