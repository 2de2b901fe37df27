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

    /// What `JSONValue.encoded()` writes for a special byte: `\"`, `\\`, `\n`, `\r`, `\t`, and
    /// the other control characters as `\u00xx` (lower-case hex).
    @inline(__always)
    static func escape(_ byte: UInt8) -> StaticString {
        switch byte {
        case 0x22: "\\\""
        case 0x5C: "\\\\"
        default: controlEscapes[Int(byte)]
        }
    }

    private static let controlEscapes: [StaticString] = [
        "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
        "\\u0008", "\\t", "\\n", "\\u000b", "\\u000c", "\\r", "\\u000e", "\\u000f",
        "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
        "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
    ]

    /// Lends `text`'s UTF-8: a native string (all of ours) without a copy, a bridged one copied.
    @inline(__always)
    static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let lent: Void? = text.utf8.withContiguousStorageIfAvailable(body)
        if lent == nil {
            var text = text
            text.withUTF8(body)
        }
    }

    /// Walks `utf8` as the content of a JSON string that `JSONValue.encoded()` writes: each run
    /// that needs no escape (most strings are one run) goes to `run` whole, each special byte's
    /// escape to `escape`; other bytes, UTF-8 included, stay as they are.
    @inline(__always)
    static func escapedRuns(
        of utf8: UnsafeBufferPointer<UInt8>, run: (UnsafeBufferPointer<UInt8>) -> Void, escape: (StaticString) -> Void
    ) {
        var runStart = 0
        var nonASCII = false  // unused: a writer copies any UTF-8 as it is
        while true {
            let special = firstSpecial(in: utf8, from: runStart, nonASCII: &nonASCII)
            run(UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
            guard special < utf8.count else { return }
            escape(Self.escape(utf8[special]))
            runStart = special + 1
        }
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
                let word = ByteWord.load(raw, at: index)
                if hasSpecial(word) { break }
                highBits |= word
                index += 8
            }
            if highBits & ByteWord.highBits != 0 { nonASCII = true }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if isSpecial(byte) { break }
            if byte >= 0x80 { nonASCII = true }
            index += 1
        }
        return index
    }

    /// Whether any of the word's eight bytes is special: a quote, a backslash or a control byte.
    @inline(__always)
    static func hasSpecial(_ word: UInt64) -> Bool {
        ByteWord.marks(below: 0x20, in: word) | ByteWord.marks(of: UInt8(ascii: "\""), in: word)
            | ByteWord.marks(of: UInt8(ascii: "\\"), in: word) != 0
    }
}
