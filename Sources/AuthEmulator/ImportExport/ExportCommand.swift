#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// `auth-emulator export --data FILE --out DIR [--project ID]`: the official export layout from a
/// stopped emulator's `--data` file.
public struct ExportCommand: Equatable, Sendable {
    public let dataFile: String
    public let outDirectory: String
    public let projectId: String?

    public init(dataFile: String, outDirectory: String, projectId: String?) {
        self.dataFile = dataFile
        self.outDirectory = outDirectory
        self.projectId = projectId
    }

    static func parse(_ arguments: [String]) throws(CommandLineOptions.UsageError) -> CommandLineOptions.Outcome {
        var reader = ArgumentReader(arguments, usage: .export)
        var values: [String: String] = [:]
        while let argument = try reader.next() {
            guard case .flag(let flag) = argument else { throw reader.error("export takes only --data, --out and --project") }
            if flag == "--help" { return .help(CommandUsage.export.full) }
            let value = try reader.value(of: flag)
            guard !value.isEmpty else { throw reader.error("\(flag) must not be empty") }
            values[flag] = value
        }
        guard let dataFile = values["--data"], let outDirectory = values["--out"] else {
            throw reader.error("export needs --data FILE and --out DIR")
        }
        if let project = values["--project"], let problem = CommandLineOptions.projectIdProblem(project) {
            throw reader.error("--project \(problem)")
        }
        return .export(ExportCommand(dataFile: dataFile, outDirectory: outDirectory, projectId: values["--project"]))
    }

    /// Writes the export; the number of users written.
    @discardableResult
    public func run() throws -> Int {
        guard FileManager.default.fileExists(atPath: dataFile) else {
            throw ImportExportError("export: no data file at \(dataFile)")
        }
        var configuration = AuthEmulator.Configuration()
        configuration.dataFile = dataFile
        configuration.logLevel = .error
        let opened: AuthEmulator
        do {
            // It takes the file's lock as an emulator does: a running one on the file refuses the export.
            opened = try AuthEmulator(configuration: configuration)
        } catch let error as StartupError {
            guard let problem = error.dataFileProblem else { throw error }
            throw ImportExportError(DataFileMessage.text(for: problem, command: .export))
        }
        let projects = try opened.environment.store.read { try $0.users.projectIds() }
        let project = projectId ?? (projects.count == 1 ? projects[0] : configuration.projectId)
        let exporter = AccountsExporter(environment: opened.environment, projectId: project)
        try exporter.export(to: outDirectory)
        return try opened.environment.store.read { store in
            try store.users.tenantKeys(projectId: project).reduce(0) { count, tenantKey in
                count + (try store.users.count(in: UserScope(projectId: project, tenantId: tenantKey.isEmpty ? nil : tenantKey)))
            }
        }
    }
}
