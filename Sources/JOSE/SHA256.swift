internal import COpenSSL

public enum SHA256 {
    static let digestByteCount = 32

    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: digestByteCount)
        var length: UInt32 = 0
        let succeeded = input.withUnsafeBytes { inputBuffer in
            EVP_Digest(inputBuffer.baseAddress, inputBuffer.count, &digest, &length, EVP_sha256(), nil)
        }
        // SHA-256 over memory cannot fail short of OpenSSL being unusable; there is no sane fallback.
        guard succeeded == 1, length == digestByteCount else {
            fatalError("SHA-256 failed: \(OpenSSLErrorQueue.drain())")
        }
        return digest
    }

    /// Lower-case hex of the SHA-256 of the UTF-8 text (Apple's nonce form).
    public static func hexDigest(of text: String) -> String {
        Hex.lowercase(hash(Array(text.utf8)))
    }
}

/// Lowercase hexadecimal, as digests are written in nonces and fingerprints.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func lowercase(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
