internal import COpenSSL

/// Fresh key pairs from OpenSSL's default provider.
enum KeyGeneration {
    static func rsa(bits: Int) throws -> PKey {
        guard bits >= KeyKind.minimumRSABits, bits <= 16384 else {
            throw JOSEError("RSA key size must be between \(KeyKind.minimumRSABits) and 16384 bits")
        }
        return try generate(type: "RSA") { context in
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits))
        }
    }

    static func p256() throws -> PKey {
        try generate(type: "EC") { context in
            EVP_PKEY_CTX_set_group_name(context, PublicKeyParameters.p256GroupName)
        }
    }

    private static func generate(type: String, configure: (OpaquePointer) -> Int32) throws -> PKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw OpenSSLErrorQueue.error("cannot create \(type) key generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw OpenSSLErrorQueue.error("\(type) key generation failed") }
        return PKey(taking: key)
    }
}
