import JSON

/// A compact JWS/JWT split into its parts. Parsing never verifies anything.
public struct CompactJWT: Sendable {
    public let header: JSONObject
    public let payload: JSONObject
    /// `base64url(header).base64url(payload)` as ASCII bytes.
    public let signingInput: [UInt8]
    /// Empty for unsigned (`alg: none`) tokens.
    public let signature: [UInt8]

    /// Three dot-separated base64url segments whose first two are JSON objects.
    /// Error messages name the faulty part but never echo the token.
    public init(parsing token: String) throws {
        // Read in place: every signInWithIdp and lookup parses a token of about a kilobyte.
        var token = token
        (header, payload, signature, signingInput) = try token.withUTF8 { token in
            let dot = UInt8(ascii: ".")
            guard let first = token.firstIndex(of: dot), let second = token[(first + 1)...].firstIndex(of: dot),
                !token[(second + 1)...].contains(dot)
            else { throw JOSEError("token is not three segments") }
            func segment(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: token[range]) }
            let header = try Self.jsonObject(segment(0..<first), part: "header")
            let payload = try Self.jsonObject(segment(first + 1..<second), part: "payload")
            guard let signature = Base64URL.decode(bytes: segment(second + 1..<token.count)) else {
                throw JOSEError("signature is not base64url")
            }
            return (header, payload, signature, Array(segment(0..<second)))
        }
    }

    public var algorithm: String? { header["alg"]?.stringValue }
    public var keyID: String? { header["kid"]?.stringValue }

    /// Signs `payload` with `key` under a header of `alg`, `kid`, `typ: JWT` (plus `extraHeader`).
    /// `extraHeader` may override `kid` and `typ` but not `alg`, which always names the key's algorithm.
    public static func sign(
        payload: JSONObject, key: SigningKey, keyID: String, extraHeader: JSONObject = JSONObject()
    ) throws -> String {
        guard extraHeader["alg"] == nil else { throw JOSEError("extraHeader must not set alg") }
        var header: JSONObject = ["alg": .string(key.algorithm.rawValue), "kid": .string(keyID), "typ": "JWT"]
        header.merge(extraHeader)
        let signingInput = Base64URL.encode(header.encoded()) + "." + Base64URL.encode(payload.encoded())
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `{"alg":"none","typ":"JWT"}` header, the payload, and an empty third segment.
    public static func unsigned(payload: JSONObject) -> String {
        var token = unsignedHeaderSegment
        token += Base64URL.encode(payload.encoded())
        token += "."
        return token
    }

    /// `{"alg":"none","typ":"JWT"}` in base64url and the dot after it: the same for every token.
    private static let unsignedHeaderSegment: String = {
        let header: JSONObject = ["alg": "none", "typ": "JWT"]
        return Base64URL.encode(header.encoded()) + "."
    }()

    /// True when the signature verifies with `key` under the header's `alg`, and that `alg` is the
    /// key's own algorithm (so `none`, an HMAC name, or the other key type's algorithm never verify).
    public func verify(with key: VerificationKey) -> Bool {
        guard let algorithm, algorithm == key.algorithm.rawValue else { return false }
        return key.verify(signature: signature, over: signingInput, algorithm: key.algorithm)
    }

    private static func jsonObject(_ segment: UnsafeBufferPointer<UInt8>, part: String) throws -> JSONObject {
        guard let bytes = Base64URL.decode(bytes: segment) else { throw JOSEError("\(part) is not base64url") }
        guard let value = try? JSONValue(parsing: bytes) else { throw JOSEError("\(part) is not JSON") }
        guard let object = value.objectValue else { throw JOSEError("\(part) is not a JSON object") }
        return object
    }
}
