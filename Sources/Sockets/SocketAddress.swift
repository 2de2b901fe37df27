#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 socket address, to bind or to connect to.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// The literal without brackets (`127.0.0.1`, `::1`).
    public let host: String
    public private(set) var port: UInt16
    public let isIPv6: Bool

    /// Accepts an IPv4 literal, an IPv6 literal (bare or in brackets) or `localhost` (→ 127.0.0.1);
    /// nil for anything else. Host names are not resolved: the emulator binds, it does not look up.
    public init?(host: String, port: UInt16) {
        let literal = host == "localhost" ? "127.0.0.1" : Self.unbracketed(host)
        var probe = in6_addr()
        if inet_pton(AF_INET, literal, &probe) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, literal, &probe) == 1 {
            isIPv6 = true
        } else {
            return nil
        }
        self.host = literal
        self.port = port
    }

    /// As written in messages: `127.0.0.1:9099`, `[::1]:9099`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The same host on another port (the one the system picked for port 0).
    public func withPort(_ port: UInt16) -> SocketAddress {
        var address = self
        address.port = port
        return address
    }

    public var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// The size of the address `withSocketAddress` hands over.
    public var length: socklen_t { socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size) }

    /// Calls `body` with the `sockaddr` that `bind` and `connect` take.
    public func withSocketAddress<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if isIPv6 {
                var address = sockaddr_in6()
                _ = inet_pton(AF_INET6, host, &address.sin6_addr)
                address.sin6_family = sa_family_t(AF_INET6)
                #if canImport(Darwin)
                address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)  // BSD sockets carry their length
                #endif
                address.sin6_port = port.bigEndian
                raw.storeBytes(of: address, as: sockaddr_in6.self)
            } else {
                var address = sockaddr_in()
                _ = inet_pton(AF_INET, host, &address.sin_addr)
                address.sin_family = sa_family_t(AF_INET)
                #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
                #endif
                address.sin_port = port.bigEndian
                raw.storeBytes(of: address, as: sockaddr_in.self)
            }
        }
        return try withUnsafePointer(to: &storage) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Failure) in try body(address) }
        }
    }

    private static func unbracketed(_ host: String) -> String {
        guard host.hasPrefix("["), host.hasSuffix("]") else { return host }
        return String(host.dropFirst().dropLast())
    }
}
