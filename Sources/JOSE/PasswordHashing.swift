internal import COpenSSL

/// Message digests over OpenSSL, for verifying imported password hashes.
public enum MessageDigest {
    public enum Algorithm: Sendable {
        case md5, sha1, sha256, sha512

        var evp: OpaquePointer? {
            switch self {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }
    }

    public static func hash(_ algorithm: Algorithm, _ data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = data.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &output, &length, algorithm.evp, nil) }
        // Over memory this cannot fail short of OpenSSL being unusable.
        guard result == 1 else { fatalError("digest failed: \(OpenSSLErrorQueue.drain())") }
        return Array(output.prefix(Int(length)))
    }
}

/// Key derivation functions over OpenSSL: PBKDF2 (RFC 8018) and scrypt (RFC 7914).
public enum KeyDerivation {
    /// PBKDF2-HMAC; nil when OpenSSL refuses the parameters (zero iterations).
    public static func pbkdf2(
        _ digest: MessageDigest.Algorithm, password: [UInt8], salt: [UInt8], iterations: Int, length: Int
    ) -> [UInt8]? {
        guard iterations > 0, iterations <= Int(Int32.max), length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: length)
        let result = password.withUnsafeBytes { passwordBuffer in
            salt.withUnsafeBufferPointer { saltBuffer in
                PKCS5_PBKDF2_HMAC(
                    passwordBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBuffer.count),
                    saltBuffer.baseAddress, Int32(saltBuffer.count), Int32(iterations), digest.evp, Int32(length), &output)
            }
        }
        return result == 1 ? output : nil
    }

    /// The most memory one scrypt call may use (OpenSSL's default of 32 MiB is too small for
    /// Firebase's memory cost 14 with r = 8 plus working space).
    public static let scryptMemoryLimit: UInt64 = 1 << 30

    /// scrypt; nil when the parameters are invalid (N not a power of two > 1) or need too much memory.
    public static func scrypt(
        password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int
    ) -> [UInt8]? {
        guard n > 1, n & (n - 1) == 0, r > 0, p > 0, length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: length)
        let result = password.withUnsafeBytes { passwordBuffer in
            salt.withUnsafeBufferPointer { saltBuffer in
                EVP_PBE_scrypt(
                    passwordBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), passwordBuffer.count,
                    saltBuffer.baseAddress, saltBuffer.count, n, r, p, scryptMemoryLimit, &output, length)
            }
        }
        if result != 1 { _ = OpenSSLErrorQueue.drain() }
        return result == 1 ? output : nil
    }
}

/// AES-256 in counter mode over OpenSSL: the last step of Firebase's modified scrypt.
public enum AESCounterMode {
    /// Encrypts (or, the same operation, decrypts) `data`; nil unless `key` is 32 bytes and `iv` 16.
    public static func aes256(key: [UInt8], iv: [UInt8], _ data: [UInt8]) -> [UInt8]? {
        guard key.count == 32, iv.count == 16 else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, iv) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: data.count + 16)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let updated = data.withUnsafeBufferPointer { input in
            EVP_EncryptUpdate(context, &output, &written, input.baseAddress, Int32(input.count))
        }
        guard updated == 1 else { return nil }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten)
        }
        guard finished == 1 else { return nil }
        return Array(output.prefix(Int(written + finalWritten)))
    }
}
