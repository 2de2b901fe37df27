internal import COpenSSL

/// PEM and DER encoding of keys through memory BIOs.
enum PEMCodec {
    /// PKCS#8 (`PRIVATE KEY`) or traditional (`RSA PRIVATE KEY`, `EC PRIVATE KEY`). Encrypted keys are
    /// refused rather than prompting for a passphrase on the terminal.
    static func readPrivateKey(_ pem: String) throws -> PKey {
        let key = try withReadBIO(pem) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else { throw OpenSSLErrorQueue.error("not a PEM private key") }
        return PKey(taking: key)
    }

    /// SubjectPublicKeyInfo (`PUBLIC KEY`).
    static func readPublicKey(_ pem: String) throws -> PKey {
        let key = try withReadBIO(pem) { bio in
            PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else { throw OpenSSLErrorQueue.error("not a PEM public key") }
        return PKey(taking: key)
    }

    /// Unencrypted PKCS#8. The BIO is secure memory so the key text is wiped when it is freed.
    static func writePrivateKey(_ key: PKey) throws -> String {
        try withWriteBIO(BIO_s_secmem(), "private key") { bio in
            PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    static func writePublicKey(_ key: PKey) throws -> String {
        try withWriteBIO(BIO_s_mem(), "public key") { bio in
            PEM_write_bio_PUBKEY(bio, key.pointer)
        }
    }

    /// A new key holding only the public half of `key` (round trip through SubjectPublicKeyInfo DER),
    /// so verification keys never carry private material.
    static func publicOnlyCopy(of key: PKey) throws -> PKey {
        let length = Int(i2d_PUBKEY(key.pointer, nil))
        guard length > 0 else { throw OpenSSLErrorQueue.error("cannot encode public key") }
        var der = [UInt8](repeating: 0, count: length)
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return Int(i2d_PUBKEY(key.pointer, &cursor))
        }
        guard written == length else { throw OpenSSLErrorQueue.error("cannot encode public key") }
        let copy: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let copy else { throw OpenSSLErrorQueue.error("cannot decode public key") }
        return PKey(taking: copy)
    }

    private static func withReadBIO<Result>(_ text: String, _ body: (OpaquePointer) -> Result) throws -> Result {
        let bytes = Array(text.utf8)
        guard bytes.count <= Int32.max else { throw JOSEError("PEM text is too large") }
        return try bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw OpenSSLErrorQueue.error("cannot allocate memory BIO")
            }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func withWriteBIO(
        _ method: OpaquePointer?, _ what: String, _ write: (OpaquePointer) -> Int32
    ) throws -> String {
        guard let bio = BIO_new(method) else { throw OpenSSLErrorQueue.error("cannot allocate memory BIO") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLErrorQueue.error("cannot write \(what) PEM") }
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { throw OpenSSLErrorQueue.error("cannot read \(what) PEM") }
        return UnsafeRawBufferPointer(start: data, count: length).withMemoryRebound(to: UInt8.self) {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
