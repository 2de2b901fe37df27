#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls whose spelling differs between Glibc and Darwin, in one place: Glibc types
/// `SOCK_STREAM` as an enum, stops SIGPIPE per send (`MSG_NOSIGNAL`) and sets close-on-exec in
/// `socket(2)` itself (`SOCK_CLOEXEC`); Darwin has a plain `Int32`, stops SIGPIPE per socket
/// (`SO_NOSIGPIPE`) and sets close-on-exec afterwards. Also the C calls whose names the types that
/// use them reuse for methods (`socket`, `connect`, `send`, `shutdown`).
public enum SystemSocket {
    /// `SOCK_STREAM` as `socket(2)` and `addrinfo` take it.
    public static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// A new TCP socket, closed in any program the process executes, whose writes fail with
    /// EPIPE, rather than kill the process, once the peer has gone; -1 (and `errno`) on failure.
    public static func openStream(family: Int32, protocol: Int32 = 0) -> Int32 {
        #if canImport(Glibc)
        return socket(family, streamType | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        #else
        let descriptor = socket(family, streamType, `protocol`)
        if descriptor >= 0 {
            closeOnExec(descriptor)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        return descriptor
        #endif
    }

    public static func connectTo(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        connect(descriptor, address, length)
    }

    /// Reads and writes on `descriptor` give up (EAGAIN) after `seconds` without progress.
    public static func setTimeouts(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One `send`; a closed peer fails it (EPIPE) instead of raising SIGPIPE. `waiting: false`
    /// sends only what fits now, on a socket that is otherwise left blocking.
    public static func transmit(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, waiting: Bool = true) -> Int {
        let dontWait = waiting ? 0 : Int32(MSG_DONTWAIT)
        #if canImport(Glibc)
        return send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | dontWait)
        #else
        return send(descriptor, bytes.baseAddress, bytes.count, dontWait)
        #endif
    }

    /// Writes all of `bytes`, retrying after a signal; false once the peer has gone (or a timeout passed).
    @discardableResult
    public static func transmitAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { transmit(descriptor, $0) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// `shutdown(2)`: both ways, or only our sending side (reads go on).
    public static func shutDown(_ descriptor: Int32, bothWays: Bool) {
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(bothWays ? SHUT_RDWR : SHUT_WR))
        #else
        _ = shutdown(descriptor, bothWays ? SHUT_RDWR : SHUT_WR)
        #endif
    }

    /// The next connection waiting on `listener`, with its peer's address; -1 when none is
    /// waiting (or the accept failed). The new socket is left blocking, whatever the listener is.
    public static func acceptConnection(
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

    /// Keeps `descriptor` (a pipe's end; sockets from `openStream` are already) out of programs
    /// this process starts (`auth-emulator exec`'s command), which would otherwise hold it open
    /// after the emulator stopped.
    public static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    public static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Wakes `poll` only once at least `bytes` bytes are waiting (or the peer is gone), so bytes
    /// that were looked at without being read do not wake it again and again.
    @discardableResult
    public static func setReceiveLowWater(_ descriptor: Int32, _ bytes: Int) -> Bool {
        var value = Int32(clamping: max(bytes, 1))
        return setsockopt(descriptor, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// The port `descriptor` is bound to; 0 when it cannot be read.
    public static func localPort(of descriptor: Int32) -> UInt16 {
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
