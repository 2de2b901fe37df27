import HTTPServer
import SMTPServer
import SQLiteStore

/// The whole emulator: store, router, HTTP server and (with `--smtp-port`) SMTP listener, wired together.
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
        /// `--smtp-port N`: the app's own mail over SMTP into the outbox; `nil` is off.
        public var smtpPort: UInt16?
        public var smtpLimits = SMTPLimits()
        /// Caps on the fake providers' keys (provider ids, keys per provider).
        public var fakeProviderLimits = FakeProviderLimits()
        /// `--advertise-host HOST[:PORT]`: the address clients are told to use (the banner, links).
        public var advertiseHost: String?

        public init() {}

        /// The `host:port` a client should use to reach the emulator listening on `port`:
        /// `--advertise-host` when given (its port, if it names one, wins: a container's published
        /// port may differ), else the listening host, where a wildcard bind (`0.0.0.0`, `::`) is
        /// named by its loopback address, since no client can connect to the wildcard itself.
        public func clientAddress(port: UInt16) -> String {
            func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
            guard let advertised = advertiseHost else { return "\(bracketed(localHost)):\(port)" }
            if advertised.hasPrefix("[") {  // [v6] or [v6]:port
                return advertised.contains("]:") ? advertised : "\(advertised):\(port)"
            }
            let colons = advertised.filter { $0 == ":" }.count
            if colons == 1 { return advertised }  // host:port
            return "\(bracketed(advertised)):\(port)"  // a bare host, or a bare IPv6 literal
        }

        /// The listening host as this machine reaches it, unbracketed: a wildcard bind by its loopback address.
        var localHost: String {
            switch host {
            case "0.0.0.0": "127.0.0.1"
            case "::", "[::]": "::1"
            default: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            }
        }
    }

    /// With `--data` a write's thread sleeps until a shared fsync covers its commit (group commit
    /// in SQLiteStore), so more threads than cores let more writes share each sync. 32, one per
    /// connection of the bench's load: signup-data 16 -> 32 threads, 8.2k, 8.3k, 9.0k -> 8.4k,
    /// 9.1k, 10.3k req/s and p99 19, 19, 19 -> 20, 19, 28 ms (three interleaved rounds).
    static let threadCountWithData = 32

    public let configuration: Configuration
    public let environment: AuthEnvironment
    private let server: HTTPServer
    private let smtp: SMTPListener?

    public init(
        configuration: Configuration, timeSource: any TimeSource = SystemTime(),
        identifiers: any IdentifierSource = SecureIdentifierSource(), logger: Logger? = nil,
        makeProviderKey: @escaping ProviderKeyring.KeyFactory = ProviderKeyring.freshKey
    ) throws {
        self.configuration = configuration
        // What would fail only later is checked before the data file is opened.
        if let directory = configuration.exportOnExitDirectory { try ExportDestination.check(directory) }
        let store: AuthStore
        do {
            store = try AuthStore(location: configuration.dataFile.map { .file($0) } ?? .inMemory)
        } catch let error as DatabaseFileError {
            throw StartupError(dataFile: error)
        }
        let clock = EmulatorClock(
            source: timeSource, offsetMilliseconds: try store.read { try $0.emulatorState.clockOffset() },
            saveOffset: { offset in try store.write { try $0.emulatorState.setClockOffset(offset) } })
        environment = try AuthEnvironment(
            store: store, clock: clock, identifiers: identifiers,
            logger: logger ?? Logger(minimumLevel: configuration.logLevel, format: configuration.logFormat), defaultProjectId: configuration.projectId,
            idpTokenMode: configuration.idpTokenMode, defaultHost: configuration.clientAddress(port: configuration.port),
            idTokenMode: configuration.idTokenMode, makeProviderKey: makeProviderKey,
            fakeProviderLimits: configuration.fakeProviderLimits)
        if let path = configuration.dataFile, !store.database.holdsFileLock {
            environment.logger.warning(
                "\(path): no lock file can be made beside it (its folder is read-only), so another emulator on it would not be refused")
        }
        let router = Router(environment: environment, routes: RouteTable.routes)
        server = HTTPServer(
            configuration: HTTPServer.Configuration(
                host: configuration.host, port: configuration.port,
                threadCount: configuration.dataFile == nil
                    ? configuration.threadCount : max(configuration.threadCount, Self.threadCountWithData)),
            handler: router)
        let delivery = AppMailDelivery(environment: environment)
        do {
            smtp = try configuration.smtpPort.map { port in
                try SMTPListener(host: configuration.host, port: port, limits: configuration.smtpLimits) { envelope, raw in
                    delivery.deliver(envelope, raw: raw)
                }
            }
        } catch let error as SMTPServerError where error.isAddressInUse {
            throw BusyPort.smtp(host: configuration.host, port: configuration.smtpPort ?? 0, reachedAt: configuration.localHost)
        }
    }

    /// Loads `--import` if given, then starts serving; the port is known once this returns. The
    /// import is read before the port is bound and written after, so a file it cannot read or a
    /// taken port stops the start with nothing imported, and no client sees a partial import.
    public func start() throws {
        let importer = AccountsImporter(environment: environment, projectId: configuration.projectId)
        let documents = try configuration.importDirectory.map(importer.read)
        do {
            try server.bind()
        } catch let error as HTTPServerError where error.isAddressInUse {
            throw BusyPort.http(host: configuration.host, port: configuration.port, reachedAt: configuration.localHost)
        }
        if let documents, let directory = configuration.importDirectory {
            let count = try importer.write(documents)
            environment.logger.info("imported \(count) users from \(directory)")
        }
        try server.start()
        try smtp?.start()
    }

    /// Writes the official export layout of the default project to `directory`.
    public func export(to directory: String) throws {
        try AccountsExporter(environment: environment, projectId: configuration.projectId).export(to: directory)
    }

    public var port: UInt16 { server.port }

    /// Where the SMTP listener listens (`127.0.0.1:2525`), when `--smtp-port` asked for one.
    public var smtpAddress: String? { smtp?.address }

    /// Finishes the requests in flight, stops, then writes `--export-on-exit` if given. False
    /// when that export failed (the reason is logged).
    @discardableResult
    public func stop() -> Bool {
        smtp?.stop()  // a message being stored is finished and acknowledged first
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
