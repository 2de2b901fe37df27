import JSON

/// A private signing key (RSA 2048+ or EC P-256). Value type over an owned OpenSSL key.
public struct SigningKey: Sendable {
    let key: PKey
    private let kind: KeyKind
    private let verificationKey: VerificationKey

    /// Wraps a private key, rejecting anything that is not RSA 2048+ or EC P-256.
    init(key: PKey) throws {
        self.key = key
        kind = try KeyKind(of: key)
        verificationKey = try VerificationKey(key: PEMCodec.publicOnlyCopy(of: key))
    }

    /// From a private JWK (RSA `n e d p q dp dq qi`, or EC P-256 `x y d`); checks that the halves match.
    /// Internal: it exists to load published test vectors (RFC 7515 appendix A).
    init(privateJWK jwk: JSONObject) throws {
        try self.init(key: PrivateKeyParameters(jwk: jwk).makeKey())
    }

    public static func generateRSA(bits: Int = 2048) throws -> SigningKey {
        try SigningKey(key: KeyGeneration.rsa(bits: bits))
    }

    public static func generateP256() throws -> SigningKey {
        try SigningKey(key: KeyGeneration.p256())
    }

    /// PKCS#8 or traditional PEM private key.
    public init(privateKeyPEM: String) throws {
        try self.init(key: PEMCodec.readPrivateKey(privateKeyPEM))
    }

    /// Unencrypted PKCS#8 (`-----BEGIN PRIVATE KEY-----`).
    public func privateKeyPEM() throws -> String {
        try PEMCodec.writePrivateKey(key)
    }

    public var algorithm: JWSAlgorithm { kind.algorithm }

    /// The matching public key; it holds no private material.
    public var publicKey: VerificationKey { verificationKey }
}

extension SigningKey {
    /// The JWS signature of `signingInput` (RS256: PKCS#1 v1.5; ES256: raw r‖s, 64 bytes).
    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        let signature = try DigestSignature.sign(signingInput, with: key, kind: kind)
        switch kind {
        case .rsa: return signature
        case .p256: return try ECDSASignatureEncoding.raw(fromDER: signature)
        }
    }
}
