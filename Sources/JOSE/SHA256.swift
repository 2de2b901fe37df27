internal import COpenSSL

public enum SHA256 {
    static let digestByteCount = 32

    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { hash($0) }
    }

    public static func hash(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var length: UInt32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: digestByteCount) { digest, initialized in
            let succeeded = EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, algorithm.pointer, nil)
            // SHA-256 over memory cannot fail short of OpenSSL being unusable; there is no sane fallback.
            guard succeeded == 1, length == digestByteCount else {
                fatalError("SHA-256 failed: \(OpenSSLErrorQueue.drain())")
            }
            initialized = digestByteCount
        }
        return digest
    }

    /// Fetched once: `EVP_sha256()` makes every `EVP_Digest` look the algorithm up in OpenSSL 3's
    /// provider tables again, most of the cost of hashing a refresh token. Signatures use it too.
    static let algorithm = FetchedDigest("SHA256")

    /// Lower-case hex of the SHA-256 of the UTF-8 text (Apple's nonce form).
    public static func hexDigest(of text: String) -> String {
        Hex.lowercase(hash(Array(text.utf8)))
    }
}

/// An `EVP_MD` fetched from OpenSSL's default provider and kept for the life of the process.
/// `@unchecked Sendable`: a fetched `EVP_MD` is immutable and OpenSSL documents it as safe to
/// share between threads; it is never freed.
final class FetchedDigest: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ name: String) {
        guard let pointer = EVP_MD_fetch(nil, name, nil) else {
            fatalError("OpenSSL has no \(name) digest: \(OpenSSLErrorQueue.drain())")
        }
        self.pointer = pointer
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
