#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// Loads an official-format export (reference §12.3) into one project, through the same
/// `accounts:batchCreate` and config helpers the routes use. Existing data is kept, as in the
/// reference emulator.
struct AccountsImporter {
    let environment: AuthEnvironment
    let projectId: String

    /// The number of users written; entries the batch refused are logged and skipped.
    @discardableResult
    func importDirectory(_ directory: String) throws -> Int {
        guard ImportExportFile.isDirectory(directory) else {
            throw ImportExportError("--import: \(directory) is not a directory")
        }
        let folder = try ExportLayout.authFolder(in: directory)
        try importConfig(from: URL(fileURLWithPath: folder).appendingPathComponent(ExportLayout.configFile).path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var imported = 0
        for name in names.sorted() where name.contains("accounts") && name.hasSuffix(".json") {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            imported += try importAccounts(from: path, tenantKey: ExportLayout.tenantKey(accountsFile: name))
        }
        return imported
    }

    private func importConfig(from path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            environment.logger.warning("Skipped importing config because \(path) does not exist.")
            return
        }
        let body = RequestBody(RequestBody.camelCased(try ImportExportFile.readObject(path)))
        do {
            let allowDuplicateEmails = try body.nested("signIn")?.bool("allowDuplicateEmails")
            let improvedPrivacy = try body.nested("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy")
            try environment.write(in: UserScope(projectId: projectId), isPrivileged: true) { transaction in
                var config = try transaction.config()
                config.allowDuplicateEmails = allowDuplicateEmails ?? config.allowDuplicateEmails
                config.improvedEmailPrivacy = improvedPrivacy ?? config.improvedEmailPrivacy
                try environment.projectConfigs.save(config, for: projectId, store: transaction.store)
            }
        } catch let error as AuthError {
            throw ImportExportError("Error during Auth Emulator import: \(path): \(error.message)")
        }
    }

    private func importAccounts(from path: String, tenantKey: String) throws -> Int {
        let body = RequestBody(RequestBody.camelCased(try ImportExportFile.readObject(path)))
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
