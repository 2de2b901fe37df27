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
            // The dots found eight bytes at a time (`ByteSearch`), where `firstIndex(of:)` and
            // `contains` walked the kilobyte a byte at a time.
            let dot = UInt8(ascii: ".")
            let first = ByteSearch.firstIndex(of: dot, in: token, range: 0..<token.count)
            let second = first < token.count ? ByteSearch.firstIndex(of: dot, in: token, range: first + 1..<token.count) : token.count
            guard second < token.count, !ByteSearch.contains(dot, in: token, range: second + 1..<token.count) else {
                throw JOSEError("token is not three segments")
            }
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
        try sign(payloadJSON: payload.encoded(), key: key, keyID: keyID, extraHeader: extraHeader)
    }

    /// `sign(payload:…)` for a payload already written as compact JSON (`payloadJSON` must be a
    /// JSON object's bytes, as `JSONObject.encoded()` writes them).
    public static func sign(
        payloadJSON: [UInt8], key: SigningKey, keyID: String, extraHeader: JSONObject = JSONObject()
    ) throws -> String {
        guard extraHeader["alg"] == nil else { throw JOSEError("extraHeader must not set alg") }
        var header: JSONObject = ["alg": .string(key.algorithm.rawValue), "kid": .string(keyID), "typ": "JWT"]
        header.merge(extraHeader)
        let signingInput = Base64URL.encode(header.encoded()) + "." + Base64URL.encode(payloadJSON)
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `{"alg":"none","typ":"JWT"}` header, the payload, and an empty third segment.
    public static func unsigned(payload: JSONObject) -> String {
        unsigned(payloadJSON: payload.encoded())
    }

    /// `unsigned(payload:)` for a payload already written as compact JSON (`payloadJSON` must be a
    /// JSON object's bytes). The token is written into one string sized once: the constant header
    /// segment, the payload's base64url, the final dot (no intermediate strings to join).
    public static func unsigned(payloadJSON: [UInt8]) -> String {
        let encoding = Base64Encoding.urlSafe
        let header = unsignedHeaderSegment
        let length = header.count + encoding.encodedCount(of: payloadJSON.count) + 1
        return payloadJSON.withUnsafeBufferPointer { payload in
            String(unsafeUninitializedCapacity: length) { output in
                var written = UnsafeMutableBufferPointer(rebasing: output[..<header.count]).initialize(from: header).1
                written += encoding.write(payload, to: UnsafeMutableBufferPointer(rebasing: output[written...]))
                output[written] = UInt8(ascii: ".")
                return written + 1
            }
        }
    }

    /// `{"alg":"none","typ":"JWT"}` in base64url and the dot after it: the same for every token.
    private static let unsignedHeaderSegment: [UInt8] = {
        let header: JSONObject = ["alg": "none", "typ": "JWT"]
        return Array((Base64URL.encode(header.encoded()) + ".").utf8)
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
