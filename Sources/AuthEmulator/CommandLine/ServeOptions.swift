/// What a serving emulator was asked for: its configuration, and where its host, port and
/// project came from (the banner says so).
public struct ServeCommand: Equatable, Sendable {
    public var configuration: AuthEmulator.Configuration
    public var origins: SettingOrigins
}

/// Where each setting the Firebase CLI's files can give came from, as the banner writes it after
/// the value: `default`, `--port`, `/app/firebase.json emulators.auth.port`, ….
public struct SettingOrigins: Equatable, Sendable {
    public var host = "default"
    public var port = "default"
    public var project = "default"

    /// `host 127.0.0.1 (default), port 9100 (/app/firebase.json emulators.auth.port), project …`.
    public func summary(host: String, port: UInt16, project: String) -> String {
        "host \(host) (\(self.host)), port \(port) (\(self.port)), project \(project) (\(self.project))"
    }
}

/// The flags of a serving emulator (`auth-emulator [options]`, and `exec`'s), read one at a
/// time, then laid over firebase.json and .firebaserc.
struct ServeOptions {
    /// The command these flags belong to, whose short usage follows an error.
    private let usage: CommandUsage
    private var configuration = AuthEmulator.Configuration()
    private var host: String?
    private var port: UInt16?
    private var project: String?
    private var configFile: String?

    init(usage: CommandUsage, logLevel: LogLevel = .info) {
        self.usage = usage
        configuration.logLevel = logLevel
    }

    /// Takes `flag` (just read by `reader`) and its value; false when it is not a serve flag.
    mutating func read(_ flag: String, from reader: inout ArgumentReader) throws(CommandLineOptions.UsageError) -> Bool {
        /// A value that must be one of a mode's names, e.g. `lenient or strict`.
        func choice<Mode: RawRepresentable<String>>(_: Mode.Type, _ names: String) throws(CommandLineOptions.UsageError) -> Mode {
            let text = try reader.value(of: flag)
            guard let mode = Mode(rawValue: text) else { throw reader.error("\(flag) must be \(names), not \(Self.quoted(text))") }
            return mode
        }
        /// A file or directory path, which must not be empty.
        func path(naming what: String) throws(CommandLineOptions.UsageError) -> String {
            let path = try reader.value(of: flag)
            guard !path.isEmpty else { throw reader.error("\(flag) must name \(what)") }
            return path
        }
        func portNumber() throws(CommandLineOptions.UsageError) -> UInt16 {
            let text = try reader.value(of: flag)
            guard let port = UInt16(text) else { throw reader.error("\(flag) must be a port number, 0…65535 (0 for any free port), not \(Self.quoted(text))") }
            return port
        }
        switch flag {
        case "--host":
            let host = try reader.value(of: flag)
            guard !host.isEmpty else { throw reader.error("--host must be an IPv4 or IPv6 address, or localhost") }
            self.host = host
        case "--advertise-host":
            let advertised = try reader.value(of: flag)
            guard !advertised.isEmpty, !advertised.contains("/"), !advertised.contains(" ") else {
                throw reader.error("--advertise-host must be a host or host:port, not \(Self.quoted(advertised))")
            }
            configuration.advertiseHost = advertised
        case "--port": port = try portNumber()
        case "--smtp-port": configuration.smtpPort = try portNumber()
        case "--project": project = try reader.value(of: flag)
        case "--config": configFile = try path(naming: "a firebase.json file")
        case "--data": configuration.dataFile = try path(naming: "a file")
        case "--idp-tokens": configuration.idpTokenMode = try choice(IdPTokenMode.self, "lenient or strict")
        case "--id-tokens": configuration.idTokenMode = try choice(IDTokenMode.self, "unsigned or signed")
        case "--import": configuration.importDirectory = try path(naming: "a directory")
        case "--export-on-exit": configuration.exportOnExitDirectory = try path(naming: "a directory")
        case "--log-format": configuration.logFormat = try choice(LogFormat.self, "text or json")
        case "--log-level":
            let text = try reader.value(of: flag)
            guard let level = LogLevel(name: text) else { throw reader.error("--log-level must be debug, info, warn or error, not \(Self.quoted(text))") }
            configuration.logLevel = level
        default:
            return false
        }
        return true
    }

    /// The flags over the project's files over the defaults (`defaultPort`: 9099 to serve, 0 for
    /// exec). `workingDirectory` is where the Firebase CLI would look for its files; nil looks
    /// nowhere unless `--config` names a file.
    func resolved(workingDirectory: String?, defaultPort: UInt16) throws(CommandLineOptions.UsageError) -> ServeCommand {
        let files = try FirebaseProjectFiles.find(workingDirectory: workingDirectory, configFile: configFile)
        var configuration = configuration
        var origins = SettingOrigins()
        let file = files.firebaseJSON?.authEmulator
        (configuration.host, origins.host) =
            [host.map { ($0, "--host") }, file.flatMap { file in file.host.map { ($0, file.origin("host")) } }].lazy.compactMap { $0 }.first
            ?? (configuration.host, "default")
        (configuration.port, origins.port) =
            [port.map { ($0, "--port") }, file.flatMap { file in file.port.map { ($0, file.origin("port")) } }].lazy.compactMap { $0 }.first
            ?? (defaultPort, defaultPort == 0 ? "any free port" : "default")
        if let chosen = files.project(named: project) {
            if let problem = CommandLineOptions.projectIdProblem(chosen.id) {
                throw chosen.file.map { .init("\($0.path): \($0.key) \(problem)") } ?? .init("--project \(problem)", hint: usage.hint)
            }
            configuration.projectId = chosen.id
            origins.project = chosen.origin
        }
        return ServeCommand(configuration: configuration, origins: origins)
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
