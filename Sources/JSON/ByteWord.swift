/// Tests on eight bytes at once, loaded as one little-endian word: what `StringBytes` (the bytes a
/// JSON string escapes) and `ByteSearch` (one delimiter) scan with. The tests are the classic "has
/// a byte less than n" (Hacker's Delight): the answer marks each matching byte with its high bit,
/// never misses one, and may also mark a byte above a real match but never one below it, so a
/// zero answer is exact and the lowest mark is the first match.
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `word` below `limit` (at most 0x80), as high-bit marks.
    @inline(__always)
    static func marks(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// The bytes of `word` equal to `byte`, as high-bit marks: they are the zero bytes of
    /// `word ^ byte…byte`.
    @inline(__always)
    static func marks(of byte: UInt8, in word: UInt64) -> UInt64 {
        marks(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    @inline(__always)
    static func load(_ raw: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
