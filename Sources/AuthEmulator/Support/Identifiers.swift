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
        var characters: [UInt8] = []
        characters.reserveCapacity(count)
        while characters.count < count {
            for byte in SecureRandom.bytes(count) where byte < 248 && characters.count < count {
                characters.append(Self.alphabet[Int(byte) % 62])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    public func opaqueToken(bytes count: Int) -> String {
        Base64URL.encode(SecureRandom.bytes(count))
    }
}
