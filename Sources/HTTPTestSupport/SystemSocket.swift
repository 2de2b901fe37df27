#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls whose spelling differs between Glibc and Darwin, in one place: Glibc types
/// `SOCK_STREAM` as an enum and stops SIGPIPE per call (`MSG_NOSIGNAL`); Darwin has a plain
/// `Int32` and stops it per socket (`SO_NOSIGPIPE`). Also the C calls whose names the types here
/// reuse for methods (`socket`, `connect`, `send`).
public enum SystemSocket {
    /// `SOCK_STREAM` as `socket(2)` and `addrinfo` take it.
    public static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// A new TCP socket whose writes fail with EPIPE, rather than kill the process, once the peer has gone.
    public static func openStream(family: Int32, protocol: Int32 = 0) -> Int32 {
        let descriptor = socket(family, streamType, `protocol`)
        #if canImport(Darwin)
        if descriptor >= 0 {
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        return descriptor
    }

    public static func connectTo(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        connect(descriptor, address, length)
    }

    /// One `send`; a closed peer fails it (EPIPE) instead of raising SIGPIPE.
    public static func transmit(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        send(descriptor, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    /// Half-closes `descriptor`: no more writes, reads go on (`SHUT_WR` is an Int32 on Darwin, an enum on Glibc).
    public static func closeWriting(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(SHUT_WR))
        #else
        _ = shutdown(descriptor, SHUT_WR)
        #endif
    }
}
