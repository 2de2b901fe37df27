import Testing
@testable import JSON

/// `JSONStreamWriter` writes what `encoded()` (indent 0) and `prettyEncoded()` (indent 2) write for the
/// same members, byte for byte.
@Suite struct JSONStreamWriterTests {
    static let texts: [String] = [
        "", "plain", "Zoë 🍕 ünïcödé", "\"", "\\", "a\"b\\c", "/</script>", "\u{7F}\u{80}",
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self), "tail\n", "\ttab-first",
    ]

    @Test func stringsAreEscapedAsTheTreeWriterDoes() {
        for text in Self.texts {
            var writer = JSONStreamWriter()
            writer.string(text)
            #expect(writer.bytes == JSONValue.string(text).encoded(), "\(Array(text.utf8))")
        }
        // Every single byte below 0x80, alone and between plain runs.
        for byte in UInt8(0)..<0x80 {
            let text = String(decoding: [0x61, byte, 0x62], as: UTF8.self)
            var writer = JSONStreamWriter()
            writer.string(text)
            #expect(writer.bytes == JSONValue.string(text).encoded(), "byte \(byte)")
        }
    }

    /// The writer tests eight bytes at a time: an escape at every position of a word, and bytes
    /// just above and below the ones that need one (a false positive must not change the output).
    @Test func escapesAreFoundAtEveryPositionOfAWord() {
        for special: UInt8 in [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xFF] {
            for position in 0..<25 {
                var utf8 = Array("abcdefghijklmnopqrstuvwxy".utf8)
                utf8[position] = special
                let text = String(decoding: utf8, as: UTF8.self)  // 0x80/0xFF alone become U+FFFD
                var writer = JSONStreamWriter()
                writer.string(text)
                #expect(writer.bytes == JSONValue.string(text).encoded(), "byte \(special) at \(position)")
            }
        }
    }

    @Test func scalarsAndNestedValuesAreWrittenAsTheTreeWriterDoes() {
        let values: [JSONValue] = [
            .int(0), .int(7), .int(-7), .int(1_700_000_000_123), .int(.max), .int(.min), .bool(true), .bool(false),
            .null, .double(2.5), .double(-1e14), .double(.infinity), [1, "two", nil, [true]],
            ["a": 1, "b": ["c": "\"d\""]], [:], [],
        ]
        for value in values + [.object(Self.nested), ["a": [], "b": [:], "c": [[1], ["k": nil]]]] {
            var writer = JSONStreamWriter()
            writer.value(value)
            #expect(writer.bytes == value.encoded(), "\(value)")
            var pretty = JSONStreamWriter(indent: 2)
            pretty.value(value)
            #expect(pretty.bytes == value.prettyEncoded(), "\(value)")
        }
        for number in [Int64(0), -1, 42, .max, .min] {
            var decimal = JSONStreamWriter()
            decimal.decimalString(number)
            #expect(decimal.bytes == JSONValue.string(String(number)).encoded())
            var writer = JSONStreamWriter()
            writer.int(number)
            #expect(writer.bytes == JSONValue.int(number).encoded())
        }
    }

    static let nested: JSONObject = [
        "kind": "k", "users": [["localId": "u1", "providerUserInfo": [["providerId": "password"]], "empty": []]],
        "n": 1.5, "z": nil,
    ]

    @Test func objectsAndArraysWrittenMemberByMemberMatchTheTree() {
        for indent in [0, 2] {
            objectsAndArraysWrittenMemberByMemberMatchTheTree(indent: indent)
        }
    }

    func objectsAndArraysWrittenMemberByMemberMatchTheTree(indent: Int) {
        let inner: JSONObject = ["k\"ey": "v", "n": 1, "o": ["x": [1, 2]]]
        var writer = JSONStreamWriter(indent: indent, capacity: 4)
        writer.beginObject()
        writer.key("static")
        writer.string("https://securetoken.google.com/", "p\"roject")
        writer.key(escaping: "dyn\u{1}amic")
        writer.beginArray()
        writer.string("a")
        writer.int(-3)
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.bool(false)
        writer.endArray()
        writer.key("inner")
        writer.beginObject()
        writer.members(of: inner)
        writer.endObject()
        writer.key("empty")
        writer.beginObject()
        writer.members(of: [:])
        writer.endObject()
        writer.key("last")
        writer.value(.object(inner))
        writer.endObject()
        let tree: JSONValue = [
            "static": "https://securetoken.google.com/p\"roject",
            "dyn\u{1}amic": ["a", -3, [:], [], false],
            "inner": .object(inner), "empty": [:], "last": .object(inner),
        ]
        #expect(writer.bytes == (indent == 0 ? tree.encoded() : tree.prettyEncoded()))
    }
}
