internal import COpenSSL

/// SHA-256 sign/verify through `EVP_DigestSign*`/`EVP_DigestVerify*` with a fresh context per call.
/// RSA uses PKCS#1 v1.5 padding (RS256); EC signatures are OpenSSL's DER form.
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

    static func verify(_ signature: [UInt8], over message: [UInt8], with key: PKey, kind: KeyKind) -> Bool {
        guard let context = try? DigestContext() else { return false }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context.pointer, &keyContext, SHA256.algorithm.pointer, nil, key.pointer) == 1,
            (try? usePKCS1Padding(keyContext, kind: kind)) != nil
        else {
            OpenSSLErrorQueue.discard()
            return false
        }
        let status = signature.withUnsafeBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(
                    context.pointer, signatureBuffer.baseAddress, signatureBuffer.count, input.baseAddress, input.count)
            }
        }
        // 0 is "bad signature", negative is "malformed"; both leave reasons queued that nobody reads.
        guard status == 1 else {
            OpenSSLErrorQueue.discard()
            return false
        }
        return true
    }

    /// PKCS#1 v1.5 is OpenSSL's default for RSA, but RS256 depends on it, so say it explicitly.
    private static func usePKCS1Padding(_ keyContext: OpaquePointer?, kind: KeyKind) throws {
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
