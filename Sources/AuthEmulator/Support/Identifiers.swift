import JOSE

/// Random identifiers in the shapes Firebase uses. Injected so tests can make them predictable.
public protocol IdentifierSource: Sendable {
    /// `count` characters from [A-Za-z0-9]: local ids and tenant ids are 28 long.
    func alphanumeric(_ count: Int) -> String
    /// `count` random bytes, base64url: opaque tokens and codes.
    func opaqueToken(bytes count: Int) -> String
}

public struct SecureIdentifierSource: IdentifierSource {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    public init() {}

    public func alphanumeric(_ count: Int) -> String {
        // 62 does not divide 256: reject bytes >= 248 so every character is equally likely.
        String(unsafeUninitializedCapacity: count) { characters in
            var filled = 0
            while filled < count {
                for byte in SecureRandom.bytes(count - filled) where byte < 248 {
                    characters[filled] = Self.alphabet[Int(byte) % 62]
                    filled += 1
                }
            }
            return count
        }
    }

    public func opaqueToken(bytes count: Int) -> String {
        Base64URL.encode(SecureRandom.bytes(count))
    }
}
