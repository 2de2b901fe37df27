#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's listening socket, bound and listening as libmicrohttpd would have made it
/// (SO_REUSEADDR, IPv6 only on an IPv6 address, the system's largest backlog), non-blocking so
/// the screener can accept until the queue is empty. The screener owns and closes it.
struct ListeningSocket {
    let descriptor: Int32
    let port: UInt16

    init(_ address: ListenAddress) throws(HTTPServerError) {
        let descriptor = ServerSocket.openStream(family: address.isIPv6 ? AF_INET6 : AF_INET)
        guard descriptor >= 0 else {
            throw HTTPServerError("could not listen on \(address): \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = try address.withSocketAddress { socketAddress in
            bind(descriptor, socketAddress, address.length) == 0 && listen(descriptor, SOMAXCONN) == 0
        }
        guard bound, ServerSocket.makeNonBlocking(descriptor) else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HTTPServerError("could not listen on \(address): \(reason)")
        }
        self.descriptor = descriptor
        self.port = ServerSocket.localPort(of: descriptor)
    }
}

/// The socket calls whose spelling differs between Glibc and Darwin, in one place: Glibc types
/// `SOCK_STREAM` as an enum and stops SIGPIPE per send (`MSG_NOSIGNAL`); Darwin has a plain
/// `Int32` and stops it per socket (`SO_NOSIGPIPE`).
enum ServerSocket {
    static func openStream(family: Int32) -> Int32 {
        #if canImport(Glibc)
        socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        closeOnExec(descriptor)
        return descriptor
        #endif
    }

    /// Keeps `descriptor` out of programs this process starts (`auth-emulator exec`'s command),
    /// which would otherwise hold the port or the pipe open after the emulator stopped.
    static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// The next connection waiting on `listener`, with its peer's address; -1 when none is
    /// waiting (or the accept failed). Left blocking: the screener passes MSG_DONTWAIT on each
    /// call, and libmicrohttpd makes the sockets it gets non-blocking itself.
    static func acceptConnection(
        _ listener: Int32, _ peer: UnsafeMutablePointer<sockaddr_storage>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 {
        length.pointee = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = peer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, length) }
        #if canImport(Darwin)
        if client >= 0 {
            var on: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        return client
    }

    static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// One non-blocking `send`; a closed peer fails it (EPIPE) instead of raising SIGPIPE.
    static func transmit(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        #else
        send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
        #endif
    }

    /// `shutdown(2)` under another name, for types with a `shutdown` of their own: both ways, or
    /// only our sending side.
    static func shutDown(_ descriptor: Int32, bothWays: Bool) {
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(bothWays ? SHUT_RDWR : SHUT_WR))
        #else
        _ = shutdown(descriptor, bothWays ? SHUT_RDWR : SHUT_WR)
        #endif
    }

    /// Wakes `poll` only once at least `bytes` bytes are waiting (or the peer is gone), so bytes
    /// that were looked at without being read do not wake it again and again.
    @discardableResult
    static func setReceiveLowWater(_ descriptor: Int32, _ bytes: Int) -> Bool {
        var value = Int32(clamping: max(bytes, 1))
        return setsockopt(descriptor, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    static func localPort(of descriptor: Int32) -> UInt16 {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return 0 }
        // sin_port and sin6_port sit at the same offset, in network order.
        return withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}
