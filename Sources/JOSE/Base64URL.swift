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
        // Only trailing padding is looked for: a `=` anywhere else is outside the alphabet below,
        // so the text is refused either way, without a walk over every byte first.
        if count > 0, bytes[count - 1] == padding {
            guard count % 4 == 0 else { return nil }
            let padCount = bytes.reversed().prefix { $0 == padding }.count
            guard padCount <= 2 else { return nil }
            count -= padCount  // a `=` left before these is outside the alphabet below
        }
        guard count % 4 != 1 else { return nil }
        // Four characters to three bytes at a time, into storage sized once: every request with an
        // ID token decodes about a kilobyte here (an Apple sign-in's token, 16k instructions before
        // each group was checked once rather than each character).
        let leftover = count % 4
        let outputCount = count / 4 * 3 + (leftover == 0 ? 0 : leftover - 1)
        // Not through `unsafeUninitializedCapacity`: for 0 it hands back the shared empty array's
        // storage and writes its count there, a race ThreadSanitizer reports when two threads
        // decode an empty part (an unsigned token's signature) at once.
        if outputCount == 0 { return [] }
        var valid = true
        let output = sextets.withUnsafeBufferPointer { sextets in
            [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
                func sextet(_ position: Int) -> UInt32 {
                    let value = sextets[Int(bytes[position])]
                    if value == invalid { valid = false }
                    return UInt32(value & 0x3F)
                }
                var read = 0
                var written = 0
                while read + 4 <= count {
                    // One check per group: `invalid` is the only table value with its top bit set.
                    let first = sextets[Int(bytes[read])], second = sextets[Int(bytes[read + 1])]
                    let third = sextets[Int(bytes[read + 2])], fourth = sextets[Int(bytes[read + 3])]
                    guard (first | second | third | fourth) & 0x80 == 0 else {
                        valid = false
                        break
                    }
                    let word = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                    output[written] = UInt8(truncatingIfNeeded: word >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: word)
                    read += 4
                    written += 3
                }
                if valid, leftover == 2 {
                    let word = sextet(read) << 6 | sextet(read + 1)  // 12 bits: one byte, 4 must be zero
                    output[written] = UInt8(truncatingIfNeeded: word >> 4)
                    if word & 0xF != 0 { valid = false }
                    written += 1
                } else if valid, leftover == 3 {
                    let word = sextet(read) << 12 | sextet(read + 1) << 6 | sextet(read + 2)  // 18 bits: two bytes
                    output[written] = UInt8(truncatingIfNeeded: word >> 10)
                    output[written + 1] = UInt8(truncatingIfNeeded: word >> 2)
                    if word & 0x3 != 0 { valid = false }
                    written += 2
                }
                initialized = written
            }
        }
        return valid ? output : nil
    }
}

/// The two RFC 4648 encoders: base64url without padding (§5, JOSE) and standard base64 with
/// padding (§4, as Node's `Buffer.toString("base64")` writes it). Encoding sits on hot paths (every
/// token and refresh token), so it works on contiguous bytes and writes the string in place.
public struct Base64Encoding: Sendable {
    let alphabet: [UInt8]
    let pads: Bool
    /// The two characters of every 12-bit value, first character in the low byte: three input
    /// bytes become two table reads and two 2-byte stores rather than four of each (8 KiB a
    /// table; an ID token's payload is ~600 bytes, a refresh token's ~200).
    private let pairs: [UInt16]

    init(alphabet: [UInt8], pads: Bool) {
        self.alphabet = alphabet
        self.pads = pads
        pairs = (0..<4096).map { UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 0x3F]) << 8 }
    }

    public static let urlSafe = Base64Encoding(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8), pads: false)
    public static let standard = Base64Encoding(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8), pads: true)

    public func encode(_ bytes: some Collection<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable(encode) { return encoded }
        return Array(bytes).withUnsafeBufferPointer(encode)
    }

    /// The same as the generic form, without its call through `withContiguousStorageIfAvailable`'s
    /// protocol witness (the generic form is not specialized across the module boundary).
    public func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: encodedCount(of: bytes.count)) { write(bytes, to: $0) }
    }

    /// Characters `count` bytes encode to.
    func encodedCount(of count: Int) -> Int {
        let whole = count / 3 * 3
        let tail = count - whole
        return whole / 3 * 4 + (tail == 0 ? 0 : pads ? 4 : tail + 1)
    }

    /// Writes the encoding of `bytes` at the start of `output` (at least `encodedCount` long), so a
    /// caller can put it inside a larger string; returns the characters written.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let whole = bytes.count / 3 * 3
        let tail = bytes.count - whole
        let length = encodedCount(of: bytes.count)
        precondition(output.count >= length, "base64 output too short")
        var out = 0
        var index = 0
        if whole > 0, let base = output.baseAddress {
            let raw = UnsafeMutableRawPointer(base)
            pairs.withUnsafeBufferPointer { pairs in
                while index < whole {
                    let group = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
                    raw.storeBytes(of: pairs[group >> 12].littleEndian, toByteOffset: out, as: UInt16.self)
                    raw.storeBytes(of: pairs[group & 0xFFF].littleEndian, toByteOffset: out + 2, as: UInt16.self)
                    out += 4
                    index += 3
                }
            }
        }
        return alphabet.withUnsafeBufferPointer { alphabet in
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
