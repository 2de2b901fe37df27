#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Threads

public struct SMTPServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
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
        let bound = try Self.listeningSocket(host: host == "localhost" ? "127.0.0.1" : host, port: port)
        listenSocket = bound.socket
        self.port = bound.port
        address = bound.isIPv6 ? "[\(host)]:\(bound.port)" : "\(host == "localhost" ? "127.0.0.1" : host):\(bound.port)"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listenSocket)
            throw SMTPServerError("could not make a wake pipe: \(String(cString: strerror(errno)))")
        }
        // Kept out of programs this process starts (`auth-emulator exec`'s command), which would
        // otherwise hold the port open after the emulator stopped.
        for descriptor in [listenSocket, fds[0], fds[1]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
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
            let client = accept(listenSocket, nil, nil)
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

    private static func listeningSocket(host: String, port: UInt16) throws(SMTPServerError) -> (socket: Int32, port: UInt16, isIPv6: Bool) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(unbracketed, String(port), &hints, &found) == 0, let info = found else {
            throw SMTPServerError("could not listen for SMTP on \(host):\(port): not an IPv4 or IPv6 address")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard descriptor >= 0 else { throw SMTPServerError("could not make an SMTP socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(descriptor, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SMTPServerError("could not listen for SMTP on \(host):\(port): \(reason)")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let isIPv6 = info.pointee.ai_family == AF_INET6
        let boundPort = withUnsafeBytes(of: &bound) { raw in
            isIPv6 ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
        }
        return (descriptor, UInt16(bigEndian: boundPort), isIPv6)
    }

    /// Replies are whole and batched per read, so Nagle's delay would only hold them back.
    private static func configure(client: Int32) {
        var on: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes all of `text`; false when the client has gone.
    @discardableResult
    private static func sendAll(_ text: String, to client: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, flags) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }
}
