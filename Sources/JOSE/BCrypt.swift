/// bcrypt (Provos and Mazières, 1999): EksBlowfish over the password, in the modular crypt form
/// `$2a$`/`$2b$`/`$2y$` + two-digit cost + `$` + 22 salt characters + 31 hash characters.
/// OpenSSL has no bcrypt, so it is written here.
public enum BCrypt {
    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Whether `password` hashes to `encoded`; false for a malformed `encoded`.
    public static func verify(_ password: [UInt8], encoded: String) -> Bool {
        guard let parsed = Encoded(encoded) else { return false }
        let computed = hash(password, salt: parsed.salt, cost: parsed.cost, prefix: parsed.prefix)
        return constantTimeEquals(Array(computed.utf8), Array(encoded.utf8))
    }

    /// The cost (log2 of the rounds) of a well-formed encoded hash; nil when it is not one.
    public static func cost(ofEncoded encoded: String) -> Int? {
        Encoded(encoded)?.cost
    }

    /// The encoded hash of `password` with a 16-byte `salt` and `cost` 4…31.
    public static func hash(_ password: [UInt8], salt: [UInt8], cost: Int, prefix: String = "2b") -> String {
        precondition(salt.count == 16 && (4...31).contains(cost))
        // The key is the password with its terminating NUL, at most 72 bytes.
        let key = Array((password + [0]).prefix(72))
        var state = EksBlowfish()
        state.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            state.expand(key: key, salt: nil)
            state.expand(key: salt, salt: nil)
        }
        var words: [UInt32] = [0x4f72_7068, 0x6561_6e42, 0x6568_6f6c, 0x6465_7253, 0x6372_7944, 0x6f75_6274]
        for _ in 0..<64 {
            for index in stride(from: 0, to: 6, by: 2) {
                (words[index], words[index + 1]) = state.encrypt(words[index], words[index + 1])
            }
        }
        let digest = words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$\(prefix)$\(costText)$" + encode(salt) + encode(Array(digest.prefix(23)))
    }

    private struct Encoded {
        let prefix: String
        let cost: Int
        let salt: [UInt8]

        init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
                [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
                bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
                let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), (4...31).contains(cost),
                let salt = BCrypt.decode(Array(bytes[7..<29]), count: 16),
                BCrypt.decode(Array(bytes[29..<60]), count: 23) != nil
            else { return nil }
            prefix = String(decoding: bytes[1..<3], as: UTF8.self)
            self.cost = cost
            self.salt = salt
        }
    }

    /// bcrypt's base64: its own alphabet, no padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let first = Int(bytes[index])
            output.append(alphabet[first >> 2])
            var carry = (first & 0x03) << 4
            guard index + 1 < bytes.count else {
                output.append(alphabet[carry])
                break
            }
            let second = Int(bytes[index + 1])
            output.append(alphabet[carry | (second >> 4)])
            carry = (second & 0x0f) << 2
            guard index + 2 < bytes.count else {
                output.append(alphabet[carry])
                break
            }
            let third = Int(bytes[index + 2])
            output.append(alphabet[carry | (third >> 6)])
            output.append(alphabet[third & 0x3f])
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ characters: [UInt8], count: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in characters {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 6) | value
            bits += 6
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output.count >= count ? Array(output.prefix(count)) : nil
    }

    public static func constantTimeEquals(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

/// Blowfish with bcrypt's expensive key schedule.
struct EksBlowfish {
    private var p = BlowfishConstants.p
    private var s = BlowfishConstants.s

    func encrypt(_ left: UInt32, _ right: UInt32) -> (UInt32, UInt32) {
        p.withUnsafeBufferPointer { p in
            s.withUnsafeBufferPointer { s in Self.encrypt(left, right, p, s) }
        }
    }

    @inline(__always)
    private static func encrypt(
        _ left: UInt32, _ right: UInt32, _ p: UnsafeBufferPointer<UInt32>, _ s: UnsafeBufferPointer<UInt32>
    ) -> (UInt32, UInt32) {
        var l = left
        var r = right
        @inline(__always) func f(_ x: UInt32) -> UInt32 {
            ((s[Int(x >> 24)] &+ s[256 + Int((x >> 16) & 0xff)]) ^ s[512 + Int((x >> 8) & 0xff)]) &+ s[768 + Int(x & 0xff)]
        }
        var round = 0
        while round < 16 {
            l ^= p[round]
            r ^= f(l)
            r ^= p[round + 1]
            l ^= f(r)
            round += 2
        }
        l ^= p[16]
        r ^= p[17]
        return (r, l)
    }

    /// The key schedule; `salt` nil is bcrypt's `expand0state` (no salt mixing).
    mutating func expand(key: [UInt8], salt: [UInt8]?) {
        var keyPosition = 0
        for index in 0..<18 { p[index] ^= Self.streamWord(key, &keyPosition) }
        var saltPosition = 0
        var l: UInt32 = 0
        var r: UInt32 = 0
        p.withUnsafeMutableBufferPointer { p in
            s.withUnsafeMutableBufferPointer { s in
                let sView = UnsafeBufferPointer(s)
                var index = 0
                while index < 18 {
                    if let salt {
                        l ^= Self.streamWord(salt, &saltPosition)
                        r ^= Self.streamWord(salt, &saltPosition)
                    }
                    (l, r) = Self.encrypt(l, r, UnsafeBufferPointer(p), sView)
                    p[index] = l
                    p[index + 1] = r
                    index += 2
                }
                index = 0
                while index < 1024 {
                    if let salt {
                        l ^= Self.streamWord(salt, &saltPosition)
                        r ^= Self.streamWord(salt, &saltPosition)
                    }
                    (l, r) = Self.encrypt(l, r, UnsafeBufferPointer(p), UnsafeBufferPointer(s))
                    s[index] = l
                    s[index + 1] = r
                    index += 2
                }
            }
        }
    }

    /// The next four bytes of `data`, cyclically, big-endian.
    private static func streamWord(_ data: [UInt8], _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = (word << 8) | UInt32(data[position])
            position = (position + 1) % data.count
        }
        return word
    }
}
