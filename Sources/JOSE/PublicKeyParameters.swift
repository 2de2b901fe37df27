import JSON

/// The public half of a key in JWK terms (RFC 7518 §6.2.1, §6.3.1): unsigned big-endian integers.
enum PublicKeyParameters: Sendable {
    case rsa(modulus: [UInt8], exponent: [UInt8])
    case p256(x: [UInt8], y: [UInt8])

    static let p256CoordinateByteCount = 32
    static let p256GroupName = "P-256"

    /// Reads the public parameters out of an already classified key.
    init(of key: PKey, kind: KeyKind) throws {
        switch kind {
        case .rsa:
            self = .rsa(
                modulus: try BigNumber.parameter(ParameterName.rsaModulus, of: key).minimalBigEndian,
                exponent: try BigNumber.parameter(ParameterName.rsaPublicExponent, of: key).minimalBigEndian)
        case .p256:
            let width = Self.p256CoordinateByteCount
            guard let x = try BigNumber.parameter(ParameterName.ecPublicX, of: key).bigEndian(paddedTo: width),
                let y = try BigNumber.parameter(ParameterName.ecPublicY, of: key).bigEndian(paddedTo: width)
            else { throw JOSEError("EC public point does not fit P-256") }
            self = .p256(x: x, y: y)
        }
    }

    /// Reads `kty` and the public members of a JWK; other members (`kid`, `use`, `alg`, ...) are ignored.
    init(jwk: JSONObject) throws {
        guard let keyType = jwk["kty"] else { throw JOSEError("JWK has no kty") }
        switch keyType.stringValue {
        case "RSA":
            self = .rsa(
                modulus: try JWKMember.integer("n", in: jwk),
                exponent: try JWKMember.integer("e", in: jwk))
        case "EC":
            guard let curve = jwk["crv"] else { throw JOSEError("EC JWK has no crv") }
            guard curve.stringValue == Self.p256GroupName else {
                throw JOSEError("EC JWK curve must be P-256")
            }
            self = .p256(
                x: try JWKMember.coordinate("x", in: jwk),
                y: try JWKMember.coordinate("y", in: jwk))
        default:
            throw JOSEError("JWK kty must be RSA or EC")
        }
    }

    /// `n`,`e` or `crv`,`x`,`y`, base64url-encoded, in that order.
    var jwkMembers: JSONObject {
        var members = JSONObject()
        switch self {
        case .rsa(let modulus, let exponent):
            members["n"] = .string(Base64URL.encode(modulus))
            members["e"] = .string(Base64URL.encode(exponent))
        case .p256(let x, let y):
            members["crv"] = .string(Self.p256GroupName)
            members["x"] = .string(Base64URL.encode(x))
            members["y"] = .string(Base64URL.encode(y))
        }
        return members
    }

    var keyType: String {
        switch self {
        case .rsa: return "RSA"
        case .p256: return "EC"
        }
    }

    /// Builds a public-only key from these parameters.
    func makeKey() throws -> PKey {
        var builder = ParameterBuilder()
        try push(into: &builder)
        return try builder.makeKey(type: keyType, selection: .publicKey)
    }

    func push(into builder: inout ParameterBuilder) throws {
        switch self {
        case .rsa(let modulus, let exponent):
            try builder.push(ParameterName.rsaModulus, integer: modulus)
            try builder.push(ParameterName.rsaPublicExponent, integer: exponent)
        case .p256(let x, let y):
            try builder.push(ParameterName.groupName, text: Self.p256GroupName)
            // SEC 1 uncompressed point: 0x04 ‖ x ‖ y. OpenSSL rejects points not on the curve.
            try builder.push(ParameterName.publicKey, octets: [0x04] + x + y)
        }
    }
}

/// Reads base64url members of a JWK.
enum JWKMember {
    static func bytes(_ name: String, in jwk: JSONObject) throws -> [UInt8] {
        guard let member = jwk[name] else { throw JOSEError("JWK has no \(name)") }
        guard let text = member.stringValue else { throw JOSEError("JWK \(name) must be a string") }
        guard let bytes = Base64URL.decode(text) else { throw JOSEError("JWK \(name) is not base64url") }
        return bytes
    }

    /// A positive unsigned integer (leading zero bytes tolerated).
    static func integer(_ name: String, in jwk: JSONObject) throws -> [UInt8] {
        let value = try bytes(name, in: jwk)
        guard value.contains(where: { $0 != 0 }) else { throw JOSEError("JWK \(name) must be a positive integer") }
        return value
    }

    /// A P-256 field element or scalar: exactly 32 bytes (RFC 7518 §6.2.1.2).
    static func coordinate(_ name: String, in jwk: JSONObject) throws -> [UInt8] {
        let value = try bytes(name, in: jwk)
        guard value.count == PublicKeyParameters.p256CoordinateByteCount else {
            throw JOSEError("JWK \(name) must be \(PublicKeyParameters.p256CoordinateByteCount) bytes")
        }
        return value
    }
}
