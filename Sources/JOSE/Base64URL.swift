/// Base64url without padding (RFC 7515 §2); decoding also accepts padding.
public enum Base64URL {
    private static let alphabet = Base64Encoding.urlSafe.alphabet

    /// Six-bit value of each ASCII byte, or `invalid`.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()
    private static let invalid: UInt8 = 0xFF
    private static let padding = UInt8(ascii: "=")

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64Encoding.urlSafe.encode(bytes)
    }

    /// Nil for anything outside the base64url alphabet (including `+`, `/`, whitespace), misplaced
    /// padding, an impossible length, or non-zero leftover bits (so each byte string has one encoding).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable(decode(bytes:)) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer(decode(bytes:))
    }

    public static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var count = bytes.count
        if bytes.contains(padding) {
            guard count % 4 == 0 else { return nil }
            let padCount = bytes.reversed().prefix { $0 == padding }.count
            guard padCount <= 2 else { return nil }
            count -= padCount  // a `=` left before these is outside the alphabet below
        }
        guard count % 4 != 1 else { return nil }
        return sextets.withUnsafeBufferPointer { sextets in
            var output: [UInt8] = []
            output.reserveCapacity(count * 3 / 4)
            var accumulator: UInt32 = 0
            var bitCount = 0
            for position in 0..<count {
                let value = sextets[Int(bytes[position])]
                guard value != invalid else { return nil }
                accumulator = accumulator << 6 | UInt32(value)
                bitCount += 6
                if bitCount >= 8 {
                    bitCount -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                    accumulator &= (1 << UInt32(bitCount)) - 1
                }
            }
            return accumulator == 0 ? output : nil
        }
    }
}

/// The two RFC 4648 encoders: base64url without padding (§5, JOSE) and standard base64 with
/// padding (§4, as Node's `Buffer.toString("base64")` writes it). Encoding sits on hot paths (every
/// token and refresh token), so it works on contiguous bytes and writes the string in place.
public struct Base64Encoding: Sendable {
    let alphabet: [UInt8]
    let pads: Bool

    public static let urlSafe = Base64Encoding(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8), pads: false)
    public static let standard = Base64Encoding(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8), pads: true)

    public func encode(_ bytes: some Collection<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable(encode) { return encoded }
        return Array(bytes).withUnsafeBufferPointer(encode)
    }

    func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let whole = bytes.count / 3 * 3
        let tail = bytes.count - whole
        let length = whole / 3 * 4 + (tail == 0 ? 0 : pads ? 4 : tail + 1)
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: length) { output in
                var out = 0
                var index = 0
                while index < whole {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    output[out] = alphabet[Int(group >> 18 & 0x3F)]
                    output[out + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    output[out + 2] = alphabet[Int(group >> 6 & 0x3F)]
                    output[out + 3] = alphabet[Int(group & 0x3F)]
                    out += 4
                    index += 3
                }
                if tail > 0 {
                    let second = tail == 2 ? UInt32(bytes[index + 1]) : 0
                    let group = UInt32(bytes[index]) << 16 | second << 8
                    output[out] = alphabet[Int(group >> 18 & 0x3F)]
                    output[out + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    out += 2
                    if tail == 2 {
                        output[out] = alphabet[Int(group >> 6 & 0x3F)]
                        out += 1
                    }
                    while pads && out < length {
                        output[out] = UInt8(ascii: "=")
                        out += 1
                    }
                }
                return out
            }
        }
    }
}
