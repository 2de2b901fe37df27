// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.
import JSON

public struct JOSEError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum JWSAlgorithm: String, Sendable {
    case rs256 = "RS256"
    case es256 = "ES256"
}

/// A compact JWS/JWT split into its parts. Parsing never verifies anything.
public struct CompactJWT: Sendable {
    public let header: JSONObject
    public let payload: JSONObject
    /// `base64url(header).base64url(payload)` as ASCII bytes.
    public let signingInput: [UInt8]
    /// Empty for unsigned (`alg: none`) tokens.
    public let signature: [UInt8]

    /// Three dot-separated base64url segments whose first two are JSON objects.
    public init(parsing token: String) throws { fatalError("JOSE is not built yet") }

    public var algorithm: String? { header["alg"]?.stringValue }
    public var keyID: String? { header["kid"]?.stringValue }

    /// Signs `payload` with `key` under a header of `alg`, `kid`, `typ: JWT` (plus `extraHeader`).
    public static func sign(
        payload: JSONObject, key: SigningKey, keyID: String, extraHeader: JSONObject = JSONObject()
    ) throws -> String { fatalError("JOSE is not built yet") }

    /// `{"alg":"none","typ":"JWT"}` header, the payload, and an empty third segment.
    public static func unsigned(payload: JSONObject) -> String { fatalError("JOSE is not built yet") }

    /// True when the signature verifies with `key` under the header's `alg`.
    public func verify(with key: VerificationKey) -> Bool { fatalError("JOSE is not built yet") }
}
