/// Finds one byte in a buffer eight bytes at a time, as `StringBytes` finds the bytes a JSON
/// string escapes: a JWT or a form body is a kilobyte with a handful of delimiters, and a
/// byte-at-a-time search (`firstIndex(of:)`, `split`) costs about four instructions a byte.
public enum ByteSearch {
    /// The position of the first `byte` in `bytes[range]`, or `range.upperBound` when there is none.
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the buffer")
        var index = range.lowerBound
        let end = range.upperBound
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let pattern = ones &* UInt64(byte)
            while end - index >= 8 {
                // The bytes equal to `byte` are the zero bytes of `word`. The "has a zero byte" test
                // (Hacker's Delight) can mark a byte above a real zero, never one below it, so the
                // lowest mark is exactly the first match.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ pattern
                let zeros = (word &- ones) & ~word & 0x8080_8080_8080_8080
                if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return end
    }

    /// Whether `bytes[range]` holds `byte`.
    public static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Bool {
        firstIndex(of: byte, in: bytes, range: range) < range.upperBound
    }
}
