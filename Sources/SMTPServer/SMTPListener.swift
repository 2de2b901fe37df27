#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets
import Threads

public struct SMTPServerError: Error, CustomStringConvertible {
    public let description: String
    /// The port is taken: another socket is bound to the address already.
    public let isAddressInUse: Bool

    init(_ description: String, isAddressInUse: Bool = false) {
        self.description = description
        self.isAddressInUse = isAddressInUse
    }
}

/// An SMTP listener on POSIX sockets: one thread accepts, one thread serves each connection
/// (bounded by `SMTPLimits.maxConnections`), and `stop()` closes them all. Each connection runs an
/// `SMTPSession`; a message is acknowledged only after `deliver` has returned.
///
/// `@unchecked Sendable`: the descriptors are set once in `init`; `connections`, `stopping` and
/// `acceptThreadDone` are read and written only under `state`'s lock.
public final class SMTPListener: @unchecked Sendable {
    public typealias Deliver = @Sendable (SMTPSession.Envelope, [UInt8]) -> SMTPSession.DeliveryResult

    /// The port bound (the one the system picked when asked for port 0).
    public let port: UInt16
    /// As the banner prints it: `127.0.0.1:2525`, `[::1]:2525`.
    public let address: String
    private let listenSocket: Int32
    /// Written once by `stop()` and never drained: every poll that includes it wakes for good.
    private let wakePipe: (read: Int32, write: Int32)
    private let serverName: String
    private let limits: SMTPLimits
    private let deliver: Deliver
    private let state = ConditionLock()
    private var connections = 0
    private var stopping = false
    private var acceptThreadDone = false

    public init(host: String, port: UInt16, serverName: String = "auth-emulator", limits: SMTPLimits = SMTPLimits(),
                deliver: @escaping Deliver) throws(SMTPServerError) {
        self.serverName = serverName
        self.limits = limits
        self.deliver = deliver
        guard let requested = SocketAddress(host: host, port: port) else {
            throw SMTPServerError("could not listen for SMTP on \(host):\(port): not an IPv4 or IPv6 address")
        }
        let bound: ListeningSocket
        do {
            // Dual-stack on `::` (IPv4 clients too), and a backlog of 64: one thread per connection
            // serves far fewer than the HTTP server's queue holds.
            bound = try ListeningSocket(requested, backlog: 64, ipv6Only: false)
        } catch {
            throw SMTPServerError("could not listen for SMTP on \(requested): \(error)", isAddressInUse: error.isAddressInUse)
        }
        listenSocket = bound.descriptor
        self.port = bound.port
        address = bound.address.description
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listenSocket)
            throw SMTPServerError("could not make a wake pipe: \(String(cString: strerror(errno)))")
        }
        for end in fds { SystemSocket.closeOnExec(end) }
        wakePipe = (fds[0], fds[1])
    }

    deinit {
        close(listenSocket)
        close(wakePipe.read)
        close(wakePipe.write)
    }

    public func start() throws(SMTPServerError) {
        do {
            try PosixThread { [self] in acceptLoop() }.detach()
        } catch {
            throw SMTPServerError("could not start the SMTP listener: \(error)")
        }
    }

    /// Stops accepting, tells idle clients `421` and waits (up to `grace`) for the connections to
    /// end; a message being stored is finished and acknowledged first.
    public func stop(grace: Double = 5) {
        let first = state.withLock {
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        let deadline = MonotonicDeadline(secondsFromNow: grace)
        state.withLock {
            while connections > 0 || !acceptThreadDone {
                if !state.wait(until: deadline) { break }
            }
        }
    }

    // MARK: - Accepting

    private func acceptLoop() {
        defer {
            state.withLock {
                acceptThreadDone = true
                state.broadcast()
            }
        }
        while true {
            var fds = [pollfd(fd: listenSocket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            var peer = sockaddr_storage()
            var length = socklen_t(0)
            let client = SystemSocket.acceptConnection(listenSocket, &peer, &length)
            guard client >= 0 else { continue }
            Self.configure(client: client)
            let admitted = state.withLock {
                let admitted = !stopping && connections < limits.maxConnections
                if admitted { connections += 1 }
                return admitted
            }
            guard admitted else {
                Self.sendAll("421 4.3.2 Too many connections, try again later\r\n", to: client)
                close(client)
                continue
            }
            do {
                try PosixThread { [self] in
                    serve(client)
                    close(client)
                    connectionEnded()
                }.detach()
            } catch {
                Self.sendAll("421 4.3.2 \(serverName) Cannot serve the connection now, try again later\r\n", to: client)
                close(client)
                connectionEnded()
            }
        }
    }

    private func connectionEnded() {
        state.withLock {
            connections -= 1
            state.broadcast()
        }
    }

    // MARK: - One connection

    private func serve(_ client: Int32) {
        var session = SMTPSession(serverName: serverName, limits: limits, deliver: deliver)
        var reader = LineReader()
        guard Self.sendAll(session.greeting + "\r\n", to: client) else { return }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(limits.idleTimeoutSeconds * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                Self.sendAll("421 4.4.2 \(serverName) Idle timeout, closing the connection\r\n", to: client)
                return
            }
            if ready < 0 { return }
            if fds[1].revents != 0 && !session.isReadingData {
                Self.sendAll("421 4.3.2 \(serverName) Service shutting down\r\n", to: client)
                return
            }
            guard fds[0].revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            // End of stream or an error: a message not yet ended with "." was never acknowledged.
            if count <= 0 { return }
            reader.append(chunk[0..<count])
            var replies: [String] = []
            var close = false
            while !close {
                let limit = session.isReadingData ? limits.maxTextLineBytes : limits.maxCommandLineBytes
                guard let line = reader.nextLine(limit: limit) else { break }
                switch line {
                case .line(let bytes):
                    let output = session.receive(line: bytes)
                    replies += output.replies
                    close = output.close
                case .tooLong:
                    // In DATA the line is dropped and the message refused at its end; a command
                    // line is answered now.
                    if session.isReadingData { session.dropOversizedLine() } else { replies.append(SMTPSession.lineTooLong) }
                }
            }
            // Replies to pipelined commands go out together (RFC 2920).
            if !replies.isEmpty, !Self.sendAll(replies.map { $0 + "\r\n" }.joined(), to: client) { return }
            if close { return }
        }
    }

    // MARK: - Sockets

    /// Replies are whole and batched per read, so Nagle's delay would only hold them back.
    private static func configure(client: Int32) {
        var on: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes all of `text`; false when the client has gone.
    @discardableResult
    private static func sendAll(_ text: String, to client: Int32) -> Bool {
        SystemSocket.transmitAll(client, Array(text.utf8))
    }
}
