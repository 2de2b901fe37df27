/// Finds one byte in a buffer eight bytes at a time (`ByteWord`), as `StringBytes` finds the bytes
/// a JSON string escapes: a JWT or a form body is a kilobyte with a handful of delimiters, and a
/// byte-at-a-time search (`firstIndex(of:)`, `split`) costs about four instructions a byte.
public enum ByteSearch {
    /// The position of the first `byte` in `bytes[range]`, or `range.upperBound` when there is none.
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the buffer")
        var index = range.lowerBound
        let end = range.upperBound
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end - index >= 8 {
                let matches = ByteWord.marks(of: byte, in: ByteWord.load(raw, at: index))
                if matches != 0 { return index + matches.trailingZeroBitCount / 8 }
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
