import JSON

/// The `auth-emulator` command line (DESIGN §3), parsed into a configuration. Lives here rather
/// than in the executable so that tests can reach it.
public enum CommandLineOptions {
    public enum Outcome: Equatable {
        case run(AuthEmulator.Configuration)
        case mint(MintCommand)
        case export(ExportCommand)
        case help
        case version
    }

    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static let version = "0.1.0"

    public static let usage = """
        usage: auth-emulator [--host 127.0.0.1] [--port 9099] [--advertise-host HOST[:PORT]]
                             [--project demo-project] [--data FILE]
                             [--idp-tokens lenient|strict] [--id-tokens unsigned|signed]
                             [--import DIR] [--export-on-exit DIR] [--smtp-port N]
                             [--log-level debug|info|warn|error] [--log-format text|json]
               auth-emulator mint IDP [--email …] [--hide-email] [--nonce …] [--hashed-nonce …]
                             [--name …] [--sub …] [--audience …] [--server URL]
               auth-emulator mint gc.apple.com [--team-player-id …] [--player-id …]
                             [--game-player-id …] [--display-name …] [--bundle-id …] [--timestamp MS]
               auth-emulator export --data FILE --out DIR [--project ID]

          --host        address to listen on (default 127.0.0.1)
          --port        port to listen on, 0 for any free port (default 9099)
          --advertise-host  HOST[:PORT] clients should use, in the banner and links (default: the
                        --host, with 0.0.0.0 named 127.0.0.1; in a container, the published address)
          --project     the project every API key maps to (default demo-project)
          --data        keep state in this SQLite file across restarts (default: in memory)
          --idp-tokens  lenient accepts unsigned provider tokens as the official emulator does;
                        strict accepts only tokens the fake providers signed (default lenient)
          --id-tokens   unsigned (alg none, what the Admin SDKs in emulator mode need) or signed (RS256,
                        keys at /emulator/v1/securetoken/jwks and …/x509) (default unsigned)
          --import      load an export (firebase-export-metadata.json, auth_export/accounts*.json,
                        config.json) into the project before serving
          --export-on-exit  write such an export of the project to DIR on a clean stop (SIGINT/SIGTERM)
          --smtp-port   also take the app's own mail over SMTP on this port (0 for any free port),
                        into the outbox and through Apple's simulated relay (default off)
          --log-level   how much to log; info logs one line per request (default info)
          --log-format  text for people, json (one object a line) for machines (default text)
          --help, --version

          mint          asks a running emulator's fake provider IDP (apple.com, facebook.com,
                        google.com, yahoo.com, or any id) for a signed token and prints the answer
                        as JSON; --server defaults to $FIREBASE_AUTH_EMULATOR_HOST or 127.0.0.1:9099;
                        gc.apple.com signs a Game Center identity (requestBody: signInWithGameCenter's)
          export        writes the official export layout from a stopped emulator's --data file; the
                        project is --project, else the only project in the file, else demo-project
        """

    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Outcome {
        if arguments.first == "mint" {
            return .mint(try MintCommand.parse(Array(arguments.dropFirst()), environment: environment))
        }
        if arguments.first == "export" {
            return .export(try ExportCommand.parse(Array(arguments.dropFirst())))
        }
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
            /// A value that must be one of a mode's names, e.g. `lenient or strict`.
            func choice<Mode: RawRepresentable<String>>(_: Mode.Type, _ names: String) throws(UsageError) -> Mode {
                let text = try value()
                guard let mode = Mode(rawValue: text) else { throw UsageError(description: "\(name) must be \(names), not \(text)") }
                return mode
            }
            /// A file or directory path, which must not be empty.
            func path(naming what: String) throws(UsageError) -> String {
                let path = try value()
                guard !path.isEmpty else { throw UsageError(description: "\(name) must name \(what)") }
                return path
            }
            switch name {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--host":
                let host = try value()
                guard !host.isEmpty else { throw UsageError(description: "--host must not be empty") }
                configuration.host = host
            case "--advertise-host":
                let advertised = try value()
                guard !advertised.isEmpty, !advertised.contains("/"), !advertised.contains(" ") else {
                    throw UsageError(description: "--advertise-host must be a host or host:port, not \(advertised)")
                }
                configuration.advertiseHost = advertised
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else { throw UsageError(description: "--port must be 0…65535, not \(text)") }
                configuration.port = port
            case "--smtp-port":
                let text = try value()
                guard let port = UInt16(text) else { throw UsageError(description: "--smtp-port must be 0…65535, not \(text)") }
                configuration.smtpPort = port
            case "--project": configuration.projectId = try projectId(try value())
            case "--data": configuration.dataFile = try path(naming: "a file")
            case "--idp-tokens": configuration.idpTokenMode = try choice(IdPTokenMode.self, "lenient or strict")
            case "--id-tokens": configuration.idTokenMode = try choice(IDTokenMode.self, "unsigned or signed")
            case "--import": configuration.importDirectory = try path(naming: "a directory")
            case "--export-on-exit": configuration.exportOnExitDirectory = try path(naming: "a directory")
            case "--log-format": configuration.logFormat = try choice(LogFormat.self, "text or json")
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

    /// `--project`'s value, checked: Google project ids are lower-case letters, digits and hyphens
    /// (the emulator also takes upper case).
    static func projectId(_ project: String) throws(UsageError) -> String {
        guard !project.isEmpty, project.allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" }) else {
            throw UsageError(description: "--project must be letters, digits and hyphens, not \(project)")
        }
        return project
    }
}

/// `auth-emulator mint IDP …`: asks a running emulator's fake provider for a token (DESIGN §3).
public struct MintCommand: Equatable, Sendable {
    public let providerId: String
    /// `http://host:port` of the running emulator.
    public let server: String
    /// The mint route's body, as `POST /emulator/v1/idp/{idp}/tokens` takes it.
    public let body: [String: String]
    public let hideEmail: Bool

    public var url: String { "\(server)/emulator/v1/idp/\(URIComponent.encode(providerId))/tokens" }

    /// The body as JSON text.
    public var jsonBody: String {
        var object = JSONObject()
        for key in body.keys.sorted() { object[key] = .string(body[key]!) }
        if hideEmail { object["hideEmail"] = true }
        return object.compactString
    }

    private static let valueFlags = [
        "--email": "email", "--nonce": "nonce", "--hashed-nonce": "hashedNonce", "--name": "name", "--sub": "sub", "--audience": "audience",
        "--picture": "picture", "--alg": "alg",
        // Game Center (`mint gc.apple.com`): the player and the app its signature is for.
        "--player-id": "playerId", "--team-player-id": "teamPlayerId", "--game-player-id": "gamePlayerId",
        "--display-name": "displayName", "--bundle-id": "bundleId", "--timestamp": "timestamp",
    ]

    static func parse(_ arguments: [String], environment: [String: String]) throws(CommandLineOptions.UsageError) -> MintCommand {
        var remaining = arguments[...]
        guard let providerId = remaining.popFirst(), !providerId.hasPrefix("-") else {
            throw CommandLineOptions.UsageError(description: "mint needs a provider id, e.g. mint apple.com")
        }
        var server = environment["FIREBASE_AUTH_EMULATOR_HOST"].map { "http://\($0)" } ?? "http://127.0.0.1:9099"
        var body: [String: String] = [:]
        var hideEmail = false
        while let flag = remaining.popFirst() {
            if flag == "--hide-email" {
                hideEmail = true
                continue
            }
            guard let next = remaining.popFirst() else {
                throw CommandLineOptions.UsageError(description: "\(flag) needs a value")
            }
            if flag == "--server" {
                server = next.hasPrefix("http://") ? next : "http://\(next)"
                while server.hasSuffix("/") { server.removeLast() }
            } else if let key = valueFlags[flag] {
                body[key] = next
            } else {
                throw CommandLineOptions.UsageError(description: "unknown mint option \(flag)")
            }
        }
        return MintCommand(providerId: providerId, server: server, body: body, hideEmail: hideEmail)
    }
}
