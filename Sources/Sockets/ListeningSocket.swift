#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket bound to an address and listening, with SO_REUSEADDR (a restart need not wait out
/// the old connections' TIME_WAIT). Whoever made it owns the descriptor and closes it.
public struct ListeningSocket: Sendable {
    public let descriptor: Int32
    /// The address bound, with the port the system picked when asked for port 0.
    public let address: SocketAddress

    public var port: UInt16 { address.port }

    /// `ipv6Only` keeps an IPv6 address (`::` above all) from taking IPv4 connections too.
    public init(_ address: SocketAddress, backlog: Int32 = SOMAXCONN, ipv6Only: Bool = true) throws(SocketError) {
        let descriptor = SystemSocket.openStream(family: address.family)
        guard descriptor >= 0 else { throw SocketError.last() }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 && ipv6Only {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let listening = address.withSocketAddress { bind(descriptor, $0, address.length) == 0 && listen(descriptor, backlog) == 0 }
        guard listening else {
            let failure = SocketError.last()
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        self.address = address.withPort(SystemSocket.localPort(of: descriptor))
    }
}
