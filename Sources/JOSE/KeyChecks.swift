internal import COpenSSL

/// OpenSSL's own key validation, for keys assembled from parameters rather than generated or decoded.
enum KeyCheck {
    /// Public-key validation (EC: point on the curve; RSA: odd, composite modulus without small
    /// factors and an odd exponent above 1), for keys built from untrusted JWK members.
    static func publicKey(_ key: PKey) throws {
        try run(EVP_PKEY_public_check, on: key, failure: "JWK is not a valid public key")
    }

    /// Fails unless the private and public halves belong together (RSA: n = p·q and the CRT
    /// exponents agree; EC: pub = priv·G).
    static func pairwise(_ key: PKey) throws {
        try run(EVP_PKEY_pairwise_check, on: key, failure: "private key does not match its public key")
    }

    private static func run(_ check: (OpaquePointer?) -> Int32, on key: PKey, failure: String) throws {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw OpenSSLErrorQueue.error("cannot create key check context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard check(context) == 1 else { throw OpenSSLErrorQueue.error(failure) }
    }
}
