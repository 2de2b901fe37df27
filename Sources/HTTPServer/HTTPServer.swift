// CONTRACT (agreed API, used by AuthEmulator and the executable): keep these public signatures; add freely.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets
import Synchronization

public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// The port is taken: another socket is bound to the address already.
    public let isAddressInUse: Bool

    public init(_ description: String, isAddressInUse: Bool = false) {
        self.description = description
        self.isAddressInUse = isAddressInUse
    }
}

/// An HTTP/1.1 server on libmicrohttpd: one daemon thread per `threadCount`, fed by a thread that
/// accepts the connections and screens their first request head (`ConnectionScreener`).
///
/// The handler runs on MHD's threads, synchronously, once per request. Lifecycle calls (`start`,
/// `shutdown`, `port`) may come from any thread; `shutdown` must not be called from the handler,
/// since stopping the daemon joins the very thread the handler runs on.
public final class HTTPServer: @unchecked Sendable {
    // @unchecked Sendable: `configuration` and `handler` are immutable and Sendable; the only
    // mutable state, `lifecycle` (which owns the non-Sendable daemon), lives inside a Mutex and
    // is only touched through `withLock`. MHD's threads never see this object, only the
    // dispatcher, which is Sendable itself.
    private enum Lifecycle {
        case notStarted
        /// `bind()` was called: the socket listens (the kernel queues connections), nothing serves yet.
        case bound(ListeningSocket)
        case running(MicroHTTPDaemon)
        case stopping(port: UInt16)
        case stopped(port: UInt16)
    }

    public struct Configuration: Sendable {
        public var host: String
        /// 0 asks the kernel for a free port; read `port` after `start()`.
        public var port: UInt16
        public var threadCount: Int
        public var maximumBodyBytes: Int
        /// Idle keep-alive connections are closed after this many seconds.
        public var connectionTimeoutSeconds: Int
        /// URL, query, header and connection limits (the body's is `maximumBodyBytes`).
        public var limits: HTTPLimits

        public init(
            host: String = "127.0.0.1", port: UInt16 = 9099, threadCount: Int = HTTPServer.defaultThreadCount,
            maximumBodyBytes: Int = 1 << 20, connectionTimeoutSeconds: Int = 60, limits: HTTPLimits = HTTPLimits()
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.limits = limits
        }
    }

    /// The number of online cores, but at least 2 so one slow request cannot stall the server.
    public static var defaultThreadCount: Int { max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    public let configuration: Configuration
    private let handler: any HTTPHandler
    private let lifecycle = Mutex(Lifecycle.notStarted)

    public init(configuration: Configuration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        // No grace here: nobody is left to wait for. MHD still lets a running handler call finish.
        lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .running(let daemon): daemon.stop()
            case .bound(let socket): close(socket.descriptor)
            case .notStarted, .stopping, .stopped: break
            }
        }
    }

    /// Binds the listening socket without serving yet, so that a taken port fails before the
    /// caller does work that the server must not be seen without (an import); `start()` then
    /// serves on it. Throws when the address cannot be bound.
    public func bind() throws {
        try lifecycle.withLock { (lifecycle) throws(HTTPServerError) in
            guard case .notStarted = lifecycle else { throw HTTPServerError("the server was already bound or started") }
            lifecycle = .bound(try listeningSocket())
        }
    }

    /// Binds (unless `bind()` has) and starts serving. Throws when the address cannot be bound.
    public func start() throws {
        try lifecycle.withLock { (lifecycle) throws(HTTPServerError) in
            let socket: ListeningSocket
            switch lifecycle {
            case .notStarted: socket = try listeningSocket()
            case .bound(let bound): socket = bound
            case .running, .stopping, .stopped: throw HTTPServerError("the server was already started")
            }
            // The daemon owns the socket from here (it closes it if it cannot start): no state may hold it.
            lifecycle = .notStarted
            let dispatcher = RequestDispatcher(
                handler: handler, maximumBodyBytes: configuration.maximumBodyBytes, limits: configuration.limits)
            lifecycle = .running(
                try MicroHTTPDaemon(
                    listener: socket, threadCount: configuration.threadCount,
                    connectionTimeoutSeconds: configuration.connectionTimeoutSeconds, dispatcher: dispatcher))
        }
    }

    /// Bound and listening as libmicrohttpd would have made it (SO_REUSEADDR, IPv6 only on an
    /// IPv6 address, the system's largest backlog), non-blocking so the screener can accept until
    /// the queue is empty.
    private func listeningSocket() throws(HTTPServerError) -> ListeningSocket {
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw HTTPServerError("could not listen on \(configuration.host):\(configuration.port): not an IPv4 or IPv6 address")
        }
        let socket: ListeningSocket
        do {
            socket = try ListeningSocket(address)
        } catch {
            throw HTTPServerError("could not listen on \(address): \(error)", isAddressInUse: error.isAddressInUse)
        }
        guard SystemSocket.makeNonBlocking(socket.descriptor) else {
            let failure = SocketError.last()
            close(socket.descriptor)
            throw HTTPServerError("could not listen on \(address): \(failure)")
        }
        return socket
    }

    /// The bound port (meaningful after `start()`).
    public var port: UInt16 {
        lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .notStarted: configuration.port
            case .bound(let socket): socket.port
            case .running(let daemon): daemon.boundPort
            case .stopping(let port), .stopped(let port): port
            }
        }
    }

    /// Stops accepting connections, lets requests in flight finish (up to `gracePeriodSeconds`),
    /// then stops the daemon. Safe to call more than once.
    public func shutdown(gracePeriodSeconds: Double = 10) {
        // Take the daemon out under the lock, then wait without it, so `port` and a second
        // `shutdown` (which returns at once) never block behind the grace period.
        let daemon: MicroHTTPDaemon? = lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .running(let daemon):
                daemon.stopAccepting()
                lifecycle = .stopping(port: daemon.boundPort)
                return daemon
            case .notStarted:
                lifecycle = .stopped(port: configuration.port)
                return nil
            case .bound(let socket):
                close(socket.descriptor)
                lifecycle = .stopped(port: socket.port)
                return nil
            case .stopping, .stopped:
                return nil
            }
        }
        guard let daemon else { return }
        // Deferred requests would wait out the grace period: answer them now.
        daemon.dispatcher.suspended.completeAll(with: handler.respondToShutdown())
        daemon.dispatcher.inFlight.waitUntilIdle(atMost: gracePeriodSeconds)
        daemon.stop()
        lifecycle.withLock { $0 = .stopped(port: daemon.boundPort) }
    }
}
