internal import COpenSSL

/// HMAC over OpenSSL, for one-time passwords (RFC 4226 and 6238 use HMAC-SHA-1) and imported
/// password hashes (HMAC-MD5, -SHA-1, -SHA-256, -SHA-512).
public enum HMAC {
    public enum Digest: Sendable {
        case sha1, sha256, md5, sha512

        fileprivate var evp: OpaquePointer? {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .md5: EVP_md5()
            case .sha512: EVP_sha512()
            }
        }
    }

    public static func authenticationCode(_ digest: Digest, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                COpenSSL.HMAC(
                    digest.evp, keyBuffer.baseAddress, Int32(keyBuffer.count), messageBuffer.baseAddress,
                    messageBuffer.count, &output, &length)
            }
        }
        // Over memory this cannot fail short of OpenSSL being unusable.
        guard result != nil else { fatalError("HMAC failed: \(OpenSSLErrorQueue.drain())") }
        return Array(output.prefix(Int(length)))
    }
}

/// RFC 4648 base32 (upper case, no padding), the encoding of TOTP shared secrets.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Case-insensitive; padding and spaces ignored. Nil for any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") && character != UInt8(ascii: " ") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}

/// RFC 6238 time-based one-time passwords (HMAC-SHA-1, as authenticator apps use).
public enum TOTP {
    /// The code for the time step that holds `unixSeconds`.
    public static func code(secret: [UInt8], unixSeconds: Int64, periodSeconds: Int64 = 30, digits: Int = 6) -> String {
        var counter = UInt64(max(0, unixSeconds) / periodSeconds).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = HMAC.authenticationCode(.sha1, key: secret, message: message)
        // RFC 4226 §5.3 dynamic truncation.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// Whether `candidate` is the code of any step within `window` steps of `unixSeconds`.
    public static func verify(
        _ candidate: String, secret: [UInt8], unixSeconds: Int64, window: Int64, periodSeconds: Int64 = 30, digits: Int = 6
    ) -> Bool {
        (-window...window).contains { step in
            code(secret: secret, unixSeconds: unixSeconds + step * periodSeconds, periodSeconds: periodSeconds, digits: digits)
                == candidate
        }
    }
}
