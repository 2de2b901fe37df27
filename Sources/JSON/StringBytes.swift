/// Finds the bytes that end a plain run inside a JSON string: a quote, a backslash or a control
/// character. Tokens and ids are long runs with none (a lookup's body is one 900-byte ID token),
/// so the bytes are tested eight at a time, as one 64-bit word, and only the word that holds one
/// is read byte by byte: about a fifth of the instructions of a byte-at-a-time loop.
enum StringBytes {
    /// A byte that a JSON string must escape (and that ends a plain run when reading one).
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// The position of the first special byte in `bytes` at or after `start`, or `bytes.count`.
    /// `nonASCII` is set when a byte of the run before it is 0x80 or more.
    @inline(__always)
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, nonASCII: inout Bool) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var highBits: UInt64 = 0
            while bytes.count - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if hasSpecial(word) { break }
                highBits |= word
                index += 8
            }
            if highBits & 0x8080_8080_8080_8080 != 0 { nonASCII = true }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if isSpecial(byte) { break }
            if byte >= 0x80 { nonASCII = true }
            index += 1
        }
        return index
    }

    /// Whether any of the word's eight bytes is special. Each test is the classic "has a byte
    /// less than n" (Hacker's Delight): never a false negative, and a false positive only above
    /// a true hit, so a zero answer is exact.
    @inline(__always)
    static func hasSpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        return (control | isQuote | isBackslash) & high != 0
    }
}
