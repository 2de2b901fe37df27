/// The `auth-emulator` command line (DESIGN §3), parsed into a configuration. Lives here rather
/// than in the executable so that tests can reach it.
public enum CommandLineOptions {
    public enum Outcome: Equatable {
        case run(AuthEmulator.Configuration)
        case help
        case version
    }

    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static let version = "0.1.0"

    public static let usage = """
        usage: auth-emulator [--host 127.0.0.1] [--port 9099] [--project demo-project] [--data FILE]
                             [--log-level debug|info|warn|error]

          --host        address to listen on (default 127.0.0.1)
          --port        port to listen on, 0 for any free port (default 9099)
          --project     the project every API key maps to (default demo-project)
          --data        keep state in this SQLite file across restarts (default: in memory)
          --log-level   how much to log; info logs one line per request (default info)
          --help, --version
        """

    public static func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var configuration = AuthEmulator.Configuration()
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            // Accept both `--port 9099` and `--port=9099`.
            var name = flag
            var inlineValue: String?
            if let equals = flag.firstIndex(of: "="), flag.hasPrefix("--") {
                name = String(flag[..<equals])
                inlineValue = String(flag[flag.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(description: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--host":
                let host = try value()
                guard !host.isEmpty else { throw UsageError(description: "--host must not be empty") }
                configuration.host = host
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else { throw UsageError(description: "--port must be 0…65535, not \(text)") }
                configuration.port = port
            case "--project":
                let project = try value()
                guard isValidProjectId(project) else {
                    throw UsageError(description: "--project must be letters, digits and hyphens, not \(project)")
                }
                configuration.projectId = project
            case "--data":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(description: "--data must name a file") }
                configuration.dataFile = path
            case "--log-level":
                let text = try value()
                guard let level = LogLevel(name: text) else {
                    throw UsageError(description: "--log-level must be debug, info, warn or error, not \(text)")
                }
                configuration.logLevel = level
            default:
                throw UsageError(description: "unknown option \(flag)")
            }
        }
        return .run(configuration)
    }

    /// Google project ids: lower-case letters, digits and hyphens (the emulator also takes upper case).
    static func isValidProjectId(_ project: String) -> Bool {
        !project.isEmpty && project.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" }
    }
}

