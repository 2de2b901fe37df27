import Foundation

/// RFC 6238 codes, as an authenticator app computes them. The emulator checks TOTP codes at the
/// emulator clock's time, so compute them at `EmulatorClock.now()`, not `Date()`.
public enum TOTP {
    /// The six-digit code of a base32 `secret` at `date` (30-second steps, HMAC-SHA-1).
    public static func code(secret: String, at date: Date) throws -> String {
        guard let key = base32Decode(secret) else {
            throw EmulatorKitError(.invalidArgument, "the TOTP secret is not base32: \(secret)")
        }
        let counter = UInt64(date.timeIntervalSince1970) / 30
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let digest = Digest.hmacSHA1(key: key, message: message)
        let offset = Int(digest[19] & 0x0F)
        let number = (UInt32(digest[offset] & 0x7F) << 24) | (UInt32(digest[offset + 1]) << 16)
            | (UInt32(digest[offset + 2]) << 8) | UInt32(digest[offset + 3])
        let text = String(number % 1_000_000)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where character != "=" && character != " " {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            value = (value << 5) | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return bytes
    }
}

/// SHA-1 (for TOTP's HMAC) and SHA-256 (Apple's and Facebook's nonce), in Swift: Foundation on
/// Linux has neither, and the kit depends on nothing else.
public enum Digest {
    /// The lowercase hex SHA-256 of `text`'s UTF-8: what Apple and Facebook put in a token's `nonce`.
    public static func sha256Hex(_ text: String) -> String {
        sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha1(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha1(block.map { $0 ^ 0x36 } + message)
        return sha1(block.map { $0 ^ 0x5C } + inner)
    }

    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        for chunk in padded(message) {
            var w = chunk
            for i in 16..<80 { w.append((w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1)) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, next)
            }
            for (index, word) in [a, b, c, d, e].enumerated() { h[index] = h[index] &+ word }
        }
        return h.flatMap(\.bigEndianBytes)
    }

    static func sha256(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19]
        for chunk in padded(message) {
            var w = chunk
            for i in 16..<64 {
                let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                w.append(w[i - 16] &+ s0 &+ w[i - 7] &+ s1)
            }
            var v = h
            for i in 0..<64 {
                let s1 = v[4].rotatedRight(6) ^ v[4].rotatedRight(11) ^ v[4].rotatedRight(25)
                let choice = (v[4] & v[5]) ^ (~v[4] & v[6])
                let t1 = v[7] &+ s1 &+ choice &+ roundConstants[i] &+ w[i]
                let s0 = v[0].rotatedRight(2) ^ v[0].rotatedRight(13) ^ v[0].rotatedRight(22)
                let majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2])
                v = [t1 &+ s0 &+ majority, v[0], v[1], v[2], v[3] &+ t1, v[4], v[5], v[6]]
            }
            for index in 0..<8 { h[index] = h[index] &+ v[index] }
        }
        return h.flatMap(\.bigEndianBytes)
    }

    /// The message padded to 64-byte blocks (both digests pad alike), each as 16 big-endian words.
    private static func padded(_ message: [UInt8]) -> [[UInt32]] {
        var bytes = message + [0x80]
        bytes += [UInt8](repeating: 0, count: (64 - (bytes.count + 8) % 64) % 64)
        bytes += UInt64(message.count * 8).bigEndianBytes
        return stride(from: 0, to: bytes.count, by: 64).map { start in
            (0..<16).map { word in
                (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[start + word * 4 + $1]) }
            }
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

private extension FixedWidthInteger {
    func rotatedLeft(_ count: Int) -> Self { (self << count) | (self >> (Self.bitWidth - count)) }
    func rotatedRight(_ count: Int) -> Self { (self >> count) | (self << (Self.bitWidth - count)) }
    var bigEndianBytes: [UInt8] { (0..<(Self.bitWidth / 8)).map { UInt8(truncatingIfNeeded: self >> (Self.bitWidth - 8 * ($0 + 1))) } }
}
