internal import COpenSSL

/// SHA-256 signing through `EVP_DigestSign*` with a fresh context per call (verifying is
/// `SignatureVerifier`'s). RSA uses PKCS#1 v1.5 padding (RS256); EC signatures are OpenSSL's DER form.
enum DigestSignature {
    static func sign(_ message: [UInt8], with key: PKey, kind: KeyKind) throws -> [UInt8] {
        let context = try DigestContext()
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context.pointer, &keyContext, SHA256.algorithm.pointer, nil, key.pointer) == 1 else {
            throw OpenSSLErrorQueue.error("cannot start signing")
        }
        try usePKCS1Padding(keyContext, kind: kind)
        var length = 0
        let signature = try message.withUnsafeBufferPointer { input -> [UInt8] in
            guard EVP_DigestSign(context.pointer, nil, &length, input.baseAddress, input.count) == 1 else {
                throw OpenSSLErrorQueue.error("cannot size signature")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context.pointer, &signature, &length, input.baseAddress, input.count) == 1 else {
                throw OpenSSLErrorQueue.error("signing failed")
            }
            return Array(signature.prefix(length))
        }
        return signature
    }

    /// PKCS#1 v1.5 is OpenSSL's default for RSA, but RS256 depends on it, so say it explicitly.
    static func usePKCS1Padding(_ keyContext: OpaquePointer?, kind: KeyKind) throws {
        guard kind == .rsa else { return }
        guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
            throw OpenSSLErrorQueue.error("cannot select PKCS#1 v1.5 padding")
        }
    }
}

/// Owns one `EVP_MD_CTX` (and the `EVP_PKEY_CTX` OpenSSL hangs off it) for a single operation.
final class DigestContext {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("cannot allocate digest context") }
        self.pointer = pointer
    }

    deinit {
        EVP_MD_CTX_free(pointer)
    }
}

/// Verifies SHA-256 signatures (RS256 with PKCS#1 v1.5 padding, or ECDSA over P-256 in DER form) with
/// one key: the same check as `EVP_DigestVerify`, split so that the costly part is done once.
///
/// Setting a verification up (`EVP_DigestVerifyInit`: fetching the algorithm from OpenSSL 3's
/// provider tables, a new key context, choosing the padding) cost about 31k instructions of every
/// check, a tenth of an Apple sign-in's verification. Here it is done once per key, in `init`; each
/// check copies the prepared context (`EVP_PKEY_CTX_dup`) and verifies the message's SHA-256 with
/// `EVP_PKEY_verify`, which for an RSA key with a digest set checks the PKCS#1 v1.5 DigestInfo as
/// `EVP_DigestVerify` does.
///
/// `@unchecked Sendable` is sound because the prepared context is never used for an operation, only
/// copied: `EVP_PKEY_CTX_dup` takes it `const` and only reads it (taking references on the key and
/// algorithm atomically), and each check runs on its own copy (openssl-threads(7): objects are
/// thread-safe as long as the APIs invoked don't modify them).
final class SignatureVerifier: @unchecked Sendable {
    /// An `EVP_PKEY_CTX` initialised for verifying, with its padding and digest chosen; owned.
    private let prepared: OpaquePointer
    /// Keeps the key alive as long as the prepared context refers to it.
    private let key: PKey

    init(key: PKey, kind: KeyKind) throws {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw OpenSSLErrorQueue.error("cannot create verification context")
        }
        do {
            guard EVP_PKEY_verify_init(context) == 1 else { throw OpenSSLErrorQueue.error("cannot start verifying") }
            try DigestSignature.usePKCS1Padding(context, kind: kind)
            guard EVP_PKEY_CTX_set_signature_md(context, SHA256.algorithm.pointer) == 1 else {
                throw OpenSSLErrorQueue.error("cannot select SHA-256 for verifying")
            }
        } catch {
            EVP_PKEY_CTX_free(context)
            throw error
        }
        prepared = context
        self.key = key
    }

    deinit {
        EVP_PKEY_CTX_free(prepared)
    }

    /// True when `signature` is a valid signature of `message`'s SHA-256; false for any failure.
    func verify(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        let digest = SHA256.hash(message)
        guard let context = EVP_PKEY_CTX_dup(prepared) else {
            OpenSSLErrorQueue.discard()
            return false
        }
        defer { EVP_PKEY_CTX_free(context) }
        let status = signature.withUnsafeBufferPointer { signatureBuffer in
            digest.withUnsafeBufferPointer { digestBuffer in
                EVP_PKEY_verify(context, signatureBuffer.baseAddress, signatureBuffer.count, digestBuffer.baseAddress, digestBuffer.count)
            }
        }
        // 0 is "bad signature", negative is "malformed"; both leave reasons queued that nobody reads.
        guard status == 1 else {
            OpenSSLErrorQueue.discard()
            return false
        }
        return true
    }
}
