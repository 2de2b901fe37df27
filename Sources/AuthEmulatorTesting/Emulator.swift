import Foundation

/// One running auth-emulator, started by the kit or attached to: its address, its project, and
/// everything a test does with it (reset, fake providers, outbox, clock, users, client calls).
///
///     let emulator = try await Emulator.start()          // a binary of its own on a free port
///     let emulator = try await Emulator.shared()         // one per test process, started once
///     try await Emulator.withFreshState { emulator in … } // the shared one, reset, one test at a time
public final class Emulator: Sendable {
    /// `127.0.0.1:PORT`: what `FIREBASE_AUTH_EMULATOR_HOST` holds and `useEmulator` takes.
    public let host: String
    /// The emulator's project: the one client calls (any API key) land in.
    public let projectId: String
    /// `127.0.0.1:PORT` of the SMTP listener, when started with `smtp: true`.
    public let smtpAddress: String?
    /// The binary's version, as `GET /` says it.
    public let version: String

    let http: EmulatorHTTP
    private let process: EmulatorProcess?

    /// Options for a binary the kit starts.
    public struct Options: Sendable {
        /// The binary; nil looks for it (see `Emulator.start`).
        public var binary: String?
        public var projectId: String
        /// A port to listen on; nil (the default) lets the system pick a free one. A port in use
        /// falls back to a free one.
        public var port: Int?
        /// Start the SMTP listener for the app's own mail (on a free port).
        public var smtp: Bool
        /// More flags, e.g. `["--idp-tokens", "strict"]`.
        public var arguments: [String]
        /// How long the binary may take to be ready.
        public var startTimeout: TimeInterval

        public init(binary: String? = nil, projectId: String = "demo-project", port: Int? = nil, smtp: Bool = false,
                    arguments: [String] = [], startTimeout: TimeInterval = 20) {
            self.binary = binary
            self.projectId = projectId
            self.port = port
            self.smtp = smtp
            self.arguments = arguments
            self.startTimeout = startTimeout
        }
    }

    private init(host: String, projectId: String, smtpAddress: String?, version: String, process: EmulatorProcess?) {
        self.host = host
        self.projectId = projectId
        self.smtpAddress = smtpAddress
        self.version = version
        self.process = process
        http = EmulatorHTTP(baseURL: URL(string: "http://\(host)")!)
    }

    // MARK: Lifecycle

    /// Starts a binary of the test's own and waits until it is ready. The binary is the one named in
    /// `options.binary`, else `AUTH_EMULATOR_BIN`, else `auth-emulator` in the tests' build folder
    /// (`swift build` puts it there), else on `PATH`. Stop it with `stop()`.
    public static func start(_ options: Options = Options()) async throws -> Emulator {
        let binary = try binaryPath(options.binary)
        var arguments = ["--project", options.projectId, "--log-level", "warn"]
        if options.smtp { arguments += ["--smtp-port", "0"] }
        arguments += options.arguments
        let process: EmulatorProcess
        do {
            process = try await launch(binary, arguments + ["--port", String(options.port ?? 0)], options.startTimeout)
        } catch let failure as EmulatorKitError where options.port != nil && failure.description.contains("could not listen on") {
            // The port is taken (by another emulator or anything else): any free one will do.
            process = try await launch(binary, arguments + ["--port", "0"], options.startTimeout)
        }
        guard let host = process.host else {
            throw EmulatorKitError(.startFailed, "\(binary) printed no address")
        }
        do {
            let version = try await checkedVersion(of: EmulatorHTTP(baseURL: URL(string: "http://\(host)")!), at: binary)
            return Emulator(host: host, projectId: options.projectId, smtpAddress: process.smtpAddress, version: version,
                            process: process)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// The binary `start` would run: `explicit`, else `AUTH_EMULATOR_BIN`, else the tests' build
    /// folder, else `PATH`.
    public static func binaryPath(_ explicit: String? = nil) throws -> String {
        try BinaryLocator.locate(explicit: explicit)
    }

    private static func launch(_ binary: String, _ arguments: [String], _ timeout: TimeInterval) async throws -> EmulatorProcess {
        let process = EmulatorProcess(binary: binary, arguments: arguments)
        try await process.start(timeout: timeout)
        return process
    }

    /// Attaches to an emulator already running at `host` (default: `FIREBASE_AUTH_EMULATOR_HOST`).
    /// The project defaults to `GCLOUD_PROJECT`, then `demo-project`.
    public static func attach(host: String? = nil, projectId: String? = nil) async throws -> Emulator {
        let environment = ProcessInfo.processInfo.environment
        guard let host = host ?? environment["FIREBASE_AUTH_EMULATOR_HOST"], !host.isEmpty else {
            throw EmulatorKitError(.invalidArgument, "no host given and FIREBASE_AUTH_EMULATOR_HOST is not set")
        }
        guard let url = URL(string: "http://\(host)"), url.host != nil else {
            throw EmulatorKitError(.invalidArgument, "\(host) is not host:port")
        }
        let version = try await checkedVersion(of: EmulatorHTTP(baseURL: url), at: "http://\(host)")
        let project = projectId ?? environment["GCLOUD_PROJECT"] ?? environment["GOOGLE_CLOUD_PROJECT"] ?? "demo-project"
        return Emulator(host: host, projectId: project, smtpAddress: nil, version: version, process: nil)
    }

    /// Reads `GET /` and refuses a binary older than the kit.
    private static func checkedVersion(of http: EmulatorHTTP, at origin: String) async throws -> String {
        let status: JSONValue
        do {
            status = try await http.json("GET", "/", timeout: 10)
        } catch let error as EmulatorError {
            throw EmulatorKitError(.unreachable, "\(origin) is not an auth-emulator: GET / answered \(error.status)")
        }
        guard let text = status["authEmulator"]?["version"]?.stringValue else {
            throw EmulatorKitError(.versionMismatch, """
                \(origin) does not say its version (GET / has no authEmulator.version): it is older than \
                AuthEmulatorTesting \(AuthEmulatorTesting.version). Use a binary built from the same checkout as the kit.
                """)
        }
        guard let binary = ReleaseVersion(text), let kit = ReleaseVersion(AuthEmulatorTesting.version), !(binary < kit) else {
            throw EmulatorKitError(.versionMismatch, """
                \(origin) is auth-emulator \(text), older than AuthEmulatorTesting \(AuthEmulatorTesting.version). \
                Use a binary built from the same checkout as the kit.
                """)
        }
        return text
    }

    /// Stops the binary the kit started (SIGTERM, then SIGKILL after 5 s); an attached emulator
    /// is left running.
    public func stop() async {
        await process?.stop()
    }

    /// The process id of the binary the kit started; nil when attached.
    public var processIdentifier: Int32? { process?.processIdentifier }

    /// The last 64 KiB the binary wrote to stderr (its log), for a failing test to print.
    public var log: String { process?.stderr ?? "" }

    /// The environment that points code under test at this emulator: an Admin SDK, a backend, or
    /// an app under XCUITest (`app.launchEnvironment.merge(emulator.environment) { $1 }`).
    public var environment: [String: String] {
        ["FIREBASE_AUTH_EMULATOR_HOST": host, "GCLOUD_PROJECT": projectId, "GOOGLE_CLOUD_PROJECT": projectId]
    }

    /// Sets `environment` in this process (for an Admin SDK or server code running in the tests).
    /// `setenv` is not safe while other threads read the environment: call it before they start.
    public func exportEnvironment() {
        for (name, value) in environment { setenv(name, value, 1) }
    }

    /// `http://HOST:PORT`.
    public var baseURL: URL { http.baseURL }

    // MARK: Resets

    /// Every project back to a fresh start and the clock to real time (`POST /emulator/v1/reset`).
    /// The fake providers' keys and accounts stay.
    public func reset() async throws {
        try await http.json("POST", "/emulator/v1/reset")
    }

    // MARK: Parts

    /// The emulator's own project.
    public var project: Project { Project(emulator: self, id: projectId) }

    /// Another project of this emulator (for parallel workers: each its own project).
    public func project(_ id: String) -> Project { Project(emulator: self, id: id) }

    /// The client REST API as an app calls it (any API key: the emulator's own project).
    public var auth: AuthClient { AuthClient(emulator: self, tenantId: nil) }

    public var providers: FakeProviders { FakeProviders(emulator: self) }

    public var clock: EmulatorClock { EmulatorClock(emulator: self) }

    /// A request to any route, for what the kit does not wrap; a non-2xx answer throws `EmulatorError`.
    @discardableResult
    public func request(_ method: String, _ path: String, query: [(String, String?)] = [], body: JSONValue? = nil,
                        headers: [String: String] = [:]) async throws -> JSONValue {
        try await http.json(method, path, query: query, body: body, headers: headers)
    }

    static let owner = ["Authorization": "Bearer owner"]
}
