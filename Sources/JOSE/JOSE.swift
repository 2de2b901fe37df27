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

/// A private signing key (RSA 2048+ or EC P-256). Value type over an owned OpenSSL key.
public struct SigningKey: Sendable {
    public static func generateRSA(bits: Int = 2048) throws -> SigningKey { fatalError("JOSE is not built yet") }
    public static func generateP256() throws -> SigningKey { fatalError("JOSE is not built yet") }
    /// PKCS#8 or traditional PEM private key.
    public init(privateKeyPEM: String) throws { fatalError("JOSE is not built yet") }
    public func privateKeyPEM() throws -> String { fatalError("JOSE is not built yet") }
    public var algorithm: JWSAlgorithm { fatalError("JOSE is not built yet") }
    public var publicKey: VerificationKey { fatalError("JOSE is not built yet") }
}

/// A public key that verifies signatures.
public struct VerificationKey: Sendable {
    public init(publicKeyPEM: String) throws { fatalError("JOSE is not built yet") }
    /// From a JWK object (`kty` RSA with `n`,`e`; `kty` EC, `crv` P-256 with `x`,`y`).
    public init(jwk: JSONObject) throws { fatalError("JOSE is not built yet") }
    public func publicKeyPEM() throws -> String { fatalError("JOSE is not built yet") }
    public var algorithm: JWSAlgorithm { fatalError("JOSE is not built yet") }
    /// The public JWK: `kty`, `kid`, `use: sig`, `alg`, and `n`,`e` or `crv`,`x`,`y`.
    public func jwk(keyID: String) -> JSONObject { fatalError("JOSE is not built yet") }
    /// Verifies a JWS signature over `signingInput`. ES256 signatures are the raw 64-byte r‖s form.
    public func verify(signature: [UInt8], over signingInput: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        fatalError("JOSE is not built yet")
    }
}

extension SigningKey {
    /// The JWS signature of `signingInput` (RS256: PKCS#1 v1.5; ES256: raw r‖s, 64 bytes).
    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] { fatalError("JOSE is not built yet") }
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
