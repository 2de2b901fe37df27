#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric socket address to bind, parsed from `Configuration.host` and `port`.
struct ListenAddress: CustomStringConvertible {
    private var storage = sockaddr_storage()
    let isIPv6: Bool
    /// As written in error messages: `127.0.0.1:9099`, `[::1]:9099`.
    let description: String

    /// Accepts an IPv4 literal, an IPv6 literal (bare or in brackets) or `localhost` (→ 127.0.0.1).
    /// Other host names are refused rather than resolved: the emulator binds, it does not look up.
    init(host: String, port: UInt16) throws(HTTPServerError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        if let ipv4 = Self.ipv4(literal, port: port) {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv4, as: sockaddr_in.self) }
            isIPv6 = false
            description = "\(literal):\(port)"
        } else if let ipv6 = Self.ipv6(Self.unbracketed(literal), port: port) {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv6, as: sockaddr_in6.self) }
            isIPv6 = true
            description = "[\(Self.unbracketed(literal))]:\(port)"
        } else {
            throw HTTPServerError("could not listen on \(host):\(port): not an IPv4 or IPv6 address")
        }
    }

    /// The size of the address `withSocketAddress` hands over.
    var length: socklen_t { socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size) }

    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) throws(HTTPServerError) -> Result)
        throws(HTTPServerError) -> Result
    {
        var copy = storage
        return try withUnsafePointer(to: &copy) { (pointer) throws(HTTPServerError) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(HTTPServerError) in
                try body(address)
            }
        }
    }

    private static func ipv4(_ literal: String, port: UInt16) -> sockaddr_in? {
        var address = sockaddr_in()
        guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else { return nil }
        address.sin_family = sa_family_t(AF_INET)
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)  // BSD sockets carry their length
        #endif
        address.sin_port = port.bigEndian
        return address
    }

    private static func ipv6(_ literal: String, port: UInt16) -> sockaddr_in6? {
        var address = sockaddr_in6()
        guard inet_pton(AF_INET6, literal, &address.sin6_addr) == 1 else { return nil }
        address.sin6_family = sa_family_t(AF_INET6)
        #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        address.sin6_port = port.bigEndian
        return address
    }

    private static func unbracketed(_ host: String) -> String {
        guard host.hasPrefix("["), host.hasSuffix("]") else { return host }
        return String(host.dropFirst().dropLast())
    }
}
