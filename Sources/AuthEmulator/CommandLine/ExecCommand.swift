import JSON

/// `auth-emulator exec [options] [--] CMD [ARG…]`: a fresh emulator for as long as CMD runs, as
/// `firebase emulators:exec` gives one (DESIGN §3). The executable starts the emulator, spawns
/// CMD with `environment`, passes signals on and exits with CMD's status.
public struct ExecCommand: Equatable, Sendable {
    public var serve: ServeCommand
    /// CMD and its arguments, as given.
    public var command: [String]

    /// What to spawn: a single word is a script for `/bin/sh -c`, as firebase-tools runs
    /// `emulators:exec "npm test"` (through a shell); several words are a program and its
    /// arguments, run as they are.
    public var processArguments: [String] {
        command.count == 1 ? ["/bin/sh", "-c", command[0]] : command
    }

    /// CMD's environment: this process's, with the emulator's address and project set as
    /// firebase-tools sets them for its script (GCLOUD_PROJECT, and FIREBASE_CONFIG when the
    /// environment has none), plus GOOGLE_CLOUD_PROJECT, which the Admin SDKs read first, so
    /// that an Admin SDK in CMD talks to the emulator's project whatever the shell had.
    public func environment(inheriting inherited: [String: String], emulatorHost: String, smtpAddress: String?) -> [String: String] {
        let project = serve.configuration.projectId
        var environment = inherited
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = emulatorHost
        environment["GCLOUD_PROJECT"] = project
        environment["GOOGLE_CLOUD_PROJECT"] = project
        environment["FIREBASE_PROJECT_ID"] = project
        if environment["FIREBASE_CONFIG"] == nil {
            // The same three fields, in the same order, as firebase-tools' runScript.
            let config: JSONObject = [
                "projectId": .string(project), "storageBucket": .string("\(project).appspot.com"),
                "databaseURL": .string("https://\(project).firebaseio.com"),
            ]
            environment["FIREBASE_CONFIG"] = config.compactString
        }
        environment["FIREBASE_AUTH_EMULATOR_SMTP"] = smtpAddress
        return environment
    }

    static func parse(_ arguments: [String], workingDirectory: String?) throws(CommandLineOptions.UsageError) -> CommandLineOptions.Outcome {
        var reader = ArgumentReader(arguments, usage: .exec)
        // Request lines would bury CMD's own output; warnings and errors still show.
        var options = ServeOptions(usage: .exec, logLevel: .warning)
        var command: [String] = []
        reading: while let argument = try reader.next() {
            switch argument {
            case .flag("--help"): return .help(CommandUsage.exec.full)
            case .flag(let flag):
                guard try options.read(flag, from: &reader) else { throw reader.error("unknown option \(flag)") }
            case .word(let word):
                command = [word] + reader.rest()
                break reading
            case .separator:
                command = reader.rest()
                break reading
            }
        }
        guard !command.isEmpty else { throw reader.error("exec needs a command to run, e.g. auth-emulator exec -- npm test") }
        return .exec(ExecCommand(serve: try options.resolved(workingDirectory: workingDirectory, defaultPort: 0), command: command))
    }
}
