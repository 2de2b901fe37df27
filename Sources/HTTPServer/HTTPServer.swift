// CONTRACT (agreed API, used by AuthEmulator and the executable): keep these public signatures; add freely.

public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 server on libmicrohttpd's internal thread pool.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var host: String
        /// 0 asks the kernel for a free port; read `port` after `start()`.
        public var port: UInt16
        public var threadCount: Int
        public var maximumBodyBytes: Int
        /// Idle keep-alive connections are closed after this many seconds.
        public var connectionTimeoutSeconds: Int

        public init(
            host: String = "127.0.0.1", port: UInt16 = 9099, threadCount: Int = HTTPServer.defaultThreadCount,
            maximumBodyBytes: Int = 1 << 20, connectionTimeoutSeconds: Int = 60
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
        }
    }

    public static var defaultThreadCount: Int { 2 }

    public init(configuration: Configuration, handler: any HTTPHandler) {
        fatalError("HTTPServer is not built yet")
    }

    /// Binds and starts serving. Throws when the address cannot be bound.
    public func start() throws {
        fatalError("HTTPServer is not built yet")
    }

    /// The bound port (meaningful after `start()`).
    public var port: UInt16 { fatalError("HTTPServer is not built yet") }

    /// Stops accepting connections, lets requests in flight finish (up to `gracePeriodSeconds`),
    /// then stops the daemon. Safe to call more than once.
    public func shutdown(gracePeriodSeconds: Double = 10) {
        fatalError("HTTPServer is not built yet")
    }
}
