import JSON

/// A public key that verifies signatures.
public struct VerificationKey: Sendable {
    private let key: PKey
    private let kind: KeyKind
    /// Read once when the key is made, so producing a JWK cannot fail later.
    private let parameters: PublicKeyParameters
    /// Prepared once when the key is made: every check of a signature uses it.
    private let verifier: SignatureVerifier

    /// Wraps a key, rejecting anything that is not RSA 2048+ or EC P-256.
    init(key: PKey) throws {
        self.key = key
        kind = try KeyKind(of: key)
        parameters = try PublicKeyParameters(of: key, kind: kind)
        verifier = try SignatureVerifier(key: key, kind: kind)
    }

    /// SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public init(publicKeyPEM: String) throws {
        try self.init(key: PEMCodec.readPublicKey(publicKeyPEM))
    }

    /// From a JWK object (`kty` RSA with `n`,`e`; `kty` EC, `crv` P-256 with `x`,`y`).
    /// `use` and `alg`, when present, must be `sig` and this key type's algorithm.
    public init(jwk: JSONObject) throws {
        let parameters = try PublicKeyParameters(jwk: jwk)
        let key = try parameters.makeKey()
        try self.init(key: key)  // type and size first: those reasons are the most useful
        try KeyCheck.publicKey(key)
        if let use = jwk["use"], use.stringValue != "sig" {
            throw JOSEError("JWK use must be sig")
        }
        if let algorithm = jwk["alg"], algorithm.stringValue != kind.algorithm.rawValue {
            throw JOSEError("JWK alg does not match its \(parameters.keyType) key; expected \(kind.algorithm.rawValue)")
        }
    }

    public func publicKeyPEM() throws -> String {
        try PEMCodec.writePublicKey(key)
    }

    public var algorithm: JWSAlgorithm { kind.algorithm }

    /// The public JWK: `kty`, `kid`, `use: sig`, `alg`, and `n`,`e` or `crv`,`x`,`y`.
    public func jwk(keyID: String) -> JSONObject {
        var jwk: JSONObject = [
            "kty": .string(parameters.keyType),
            "kid": .string(keyID),
            "use": "sig",
            "alg": .string(kind.algorithm.rawValue),
        ]
        jwk.merge(parameters.jwkMembers)
        return jwk
    }

    /// Verifies a JWS signature over `signingInput`. ES256 signatures are the raw 64-byte r‖s form.
    /// False for any failure, including an `algorithm` that is not this key's.
    public func verify(signature: [UInt8], over signingInput: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        guard algorithm == kind.algorithm else { return false }
        switch kind {
        case .rsa:
            return verifier.verify(signature, over: signingInput)
        case .p256:
            guard let der = ECDSASignatureEncoding.der(fromRaw: signature) else { return false }
            return verifier.verify(der, over: signingInput)
        }
    }
}
