// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.
// The public types live one per file: Base64URL, SHA256, SecureRandom, SigningKey, VerificationKey, CompactJWT.

public struct JOSEError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum JWSAlgorithm: String, Sendable {
    case rs256 = "RS256"
    case es256 = "ES256"
}
