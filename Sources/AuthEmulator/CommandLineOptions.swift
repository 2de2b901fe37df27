/// The `auth-emulator` command line (DESIGN §3), parsed into what to do. Lives here rather than
/// in the executable so that tests can reach it; each command reads its own flags (ServeOptions,
/// ExecCommand, MintCommand, ExportCommand) and `CommandUsage` holds what `--help` prints.
public enum CommandLineOptions {
    public enum Outcome: Equatable {
        case run(ServeCommand)
        case exec(ExecCommand)
        case mint(MintCommand)
        case export(ExportCommand)
        /// `--help`: the whole usage of the command it was given to.
        case help(String)
        case version
    }

    /// A command line that cannot run: what is wrong, and the short usage to print after it
    /// (none after a malformed configuration file, where usage would not help).
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public let hint: String?

        init(_ description: String, hint: String? = nil) {
            self.description = description
            self.hint = hint
        }
    }

    /// `workingDirectory` is where firebase.json and .firebaserc are looked for (there and in its
    /// parents); nil reads neither, unless `--config` names one.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil
    ) throws(UsageError) -> Outcome {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "exec": return try ExecCommand.parse(rest, workingDirectory: workingDirectory)
        case "mint": return try MintCommand.parse(rest, environment: environment)
        case "export": return try ExportCommand.parse(rest)
        default: return try serve(arguments, workingDirectory: workingDirectory)
        }
    }

    /// `auth-emulator [options]`.
    private static func serve(_ arguments: [String], workingDirectory: String?) throws(UsageError) -> Outcome {
        var reader = ArgumentReader(arguments, usage: .serve)
        var options = ServeOptions(usage: .serve)
        while let argument = try reader.next() {
            switch argument {
            case .flag("--help"): return .help(CommandUsage.serve.full)
            case .flag("--version"): return .version
            case .flag(let flag):
                guard try options.read(flag, from: &reader) else { throw reader.error("unknown option \(flag)") }
            case .word(let word): throw reader.error(unexpected(word))
            case .separator: throw reader.error("-- belongs after exec: auth-emulator exec -- CMD")
            }
        }
        return .run(try options.resolved(workingDirectory: workingDirectory, defaultPort: 9099))
    }

    /// A word where the emulator takes only flags: a port without its flag, a command of the
    /// Firebase CLI's, or a misspelt command.
    private static func unexpected(_ word: String) -> String {
        if let port = UInt16(word) { return "unexpected argument \(word): to listen on port \(port), use --port \(port)" }
        let firebaseCommands = [
            "emulators:start": "auth-emulator serves without a command", "emulators:exec": "use auth-emulator exec -- CMD",
            "emulators:export": "use auth-emulator export --data FILE --out DIR, from a stopped --data file",
        ]
        if let hint = firebaseCommands[word] { return "\(word) is the Firebase CLI's: \(hint)" }
        let commands = ["exec", "mint", "export"]
        if let meant = NearestName.among(commands, to: word) { return "unknown command \(word); did you mean \(meant)?" }
        return "unexpected argument \(word): the commands are exec, mint and export, and options start with --"
    }

    /// What is wrong with a project id, or nil: Google project ids are lower-case letters,
    /// digits and hyphens (the emulator also takes upper case).
    static func projectIdProblem(_ project: String) -> String? {
        let valid = !project.isEmpty && project.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" }
        return valid ? nil : "must be letters, digits and hyphens, not \"\(project)\""
    }

    static func projectId(_ project: String) throws(UsageError) -> String {
        if let problem = projectIdProblem(project) { throw UsageError("--project \(problem)") }
        return project
    }
}
