#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket call that failed, with the `errno` it left.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    /// `strerror`'s text for `code`.
    public let description: String

    /// The error `errno` holds now.
    public static func last() -> SocketError { SocketError(code: errno) }

    public init(code: Int32) {
        self.code = code
        description = String(cString: strerror(code))
    }

    /// Another socket is bound to the address already.
    public var isAddressInUse: Bool { code == EADDRINUSE }
}
