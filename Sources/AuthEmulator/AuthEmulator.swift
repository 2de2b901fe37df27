import HTTPServer
import SQLiteStore

/// The whole emulator: store, router and HTTP server, wired together.
public final class AuthEmulator: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var host = "127.0.0.1"
        public var port: UInt16 = 9099
        public var projectId = "demo-project"
        /// `nil` keeps everything in memory (a fresh emulator per run).
        public var dataFile: String?
        public var logLevel = LogLevel.info
        public var logFormat = LogFormat.text
        public var idpTokenMode = IdPTokenMode.lenient
        public var idTokenMode = IDTokenMode.unsigned
        public var threadCount = HTTPServer.defaultThreadCount
        /// `--import DIR`: an official-format export loaded before serving.
        public var importDirectory: String?
        /// `--export-on-exit DIR`: where a clean stop writes an official-format export.
        public var exportOnExitDirectory: String?

        public init() {}
    }

    /// With `--data` a write's thread sleeps until a shared fsync covers its commit (group commit
    /// in SQLiteStore), so more threads than cores let more writes share each sync.
    static let threadCountWithData = 16

    public let configuration: Configuration
    public let environment: AuthEnvironment
    private let server: HTTPServer

    public init(
        configuration: Configuration, timeSource: any TimeSource = SystemTime(),
        identifiers: any IdentifierSource = SecureIdentifierSource(), logger: Logger? = nil,
        makeProviderKey: @escaping ProviderKeyring.KeyFactory = ProviderKeyring.freshKey
    ) throws {
        self.configuration = configuration
        let store = try AuthStore(location: configuration.dataFile.map { .file($0) } ?? .inMemory)
        let clock = EmulatorClock(source: timeSource, offsetMilliseconds: try store.read { try $0.emulatorState.clockOffset() })
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        environment = try AuthEnvironment(
            store: store, clock: clock, identifiers: identifiers,
            logger: logger ?? Logger(minimumLevel: configuration.logLevel, format: configuration.logFormat), defaultProjectId: configuration.projectId,
            idpTokenMode: configuration.idpTokenMode, defaultHost: "\(host):\(configuration.port)",
            idTokenMode: configuration.idTokenMode, makeProviderKey: makeProviderKey)
        let router = Router(environment: environment, routes: RouteTable.routes)
        server = HTTPServer(
            configuration: HTTPServer.Configuration(
                host: configuration.host, port: configuration.port,
                threadCount: configuration.dataFile == nil
                    ? configuration.threadCount : max(configuration.threadCount, Self.threadCountWithData)),
            handler: router)
    }

    /// Loads `--import` if given, then starts serving; the port is known once this returns.
    public func start() throws {
        if let directory = configuration.importDirectory {
            let count = try AccountsImporter(environment: environment, projectId: configuration.projectId)
                .importDirectory(directory)
            environment.logger.info("imported \(count) users from \(directory)")
        }
        try server.start()
    }

    /// Writes the official export layout of the default project to `directory`.
    public func export(to directory: String) throws {
        try AccountsExporter(environment: environment, projectId: configuration.projectId).export(to: directory)
    }

    public var port: UInt16 { server.port }

    /// Finishes the requests in flight, stops, then writes `--export-on-exit` if given. False
    /// when that export failed (the reason is logged).
    @discardableResult
    public func stop() -> Bool {
        server.shutdown()
        guard let directory = configuration.exportOnExitDirectory else { return true }
        do {
            try export(to: directory)
            environment.logger.info("exported to \(directory)")
            return true
        } catch {
            environment.logger.log(.error, "export to \(directory) failed: \(error)")
            return false
        }
    }
}
