import Testing
@testable import JSON

@Suite struct JSONTests {
    @Test func parsesAndKeepsKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"b":1,"a":[true,false,null],"c":{"d":"e"}}"#)
        #expect(value.objectValue?.keys == ["b", "a", "c"])
        #expect(value["a"] == [true, false, nil])
        #expect(value["c"]?["d"]?.stringValue == "e")
        #expect(value.compactString == #"{"b":1,"a":[true,false,null],"c":{"d":"e"}}"#)
    }

    @Test func numbersKeepIntegersExact() throws {
        #expect(try JSONValue(parsing: "1700000000123") == .int(1_700_000_000_123))
        #expect(try JSONValue(parsing: "-0.5") == .double(-0.5))
        #expect(try JSONValue(parsing: "1e3").int64Value == 1000)
        #expect(JSONValue.double(3).compactString == "3")
        #expect(JSONValue.double(0.25).compactString == "0.25")
    }

    @Test func writesIntegersDigitByDigit() {
        let numbers: [Int64] = [0, 7, -7, 10, 1_700_000_000_123, .max, .min]
        for number in numbers {
            #expect(JSONValue.int(number).compactString == String(number))
        }
        #expect(JSONValue.double(-1e14).compactString == "-100000000000000")
    }

    @Test func escapesOnlyWhatMustBeEscapedBetweenPlainRuns() {
        #expect(JSONValue.string("").compactString == #""""#)
        #expect(JSONValue.string("\"lead and trail\\").compactString == #""\"lead and trail\\""#)
        #expect(JSONValue.string("a\tb\rc\u{1F}é/").compactString == #""a\tb\rc\u001fé/""#)
        let long = String(repeating: "x", count: 300) + "\"" + String(repeating: "y", count: 300)
        #expect(JSONValue.string(long).compactString == "\"" + String(repeating: "x", count: 300) + "\\\"" + String(repeating: "y", count: 300) + "\"")
    }

    @Test func indentsDeepNestingPastOneRunOfSpaces() throws {
        var value: JSONValue = "leaf"
        for _ in 0..<40 { value = .array([value]) }
        let text = String(decoding: value.prettyEncoded(), as: UTF8.self)
        #expect(text.contains("\n" + String(repeating: " ", count: 80) + "\"leaf\"\n"))
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: #""a\"b\\c\/d\n\u00e9\ud83d\ude00""#)
        #expect(value.stringValue == "a\"b\\c/d\né😀")
        #expect(JSONValue.string("q\"\u{1}\n").compactString == #""q\"\u0001\n""#)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\":}", "tru", "01", "1.", "\"\\x\"", "\"\u{1}\"", "{} x", "\"\\ud800\"", "nul"])
    func rejectsMalformedDocuments(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func limitsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }

    @Test func prettyPrintsWithTwoSpaces() {
        let value: JSONValue = ["kind": "x", "list": [1, 2], "empty": [:]]
        let text = String(decoding: value.prettyEncoded(), as: UTF8.self)
        #expect(text == "{\n  \"kind\": \"x\",\n  \"list\": [\n    1,\n    2\n  ],\n  \"empty\": {}\n}")
    }

    /// The writer's exact bytes for every kind of value, compact and indented, including a
    /// document that outgrows the writer's first buffer several times over.
    @Test func writesEveryKindOfValueByteForByte() throws {
        let value: JSONValue = [
            "null": nil, "yes": true, "no": false, "int": -42, "double": 0.5, "whole": 2.0, "inf": .double(.infinity),
            "text": "é\u{0}\"", "list": [[], [:], ["k": [1]]],
        ]
        #expect(value.compactString == #"{"null":null,"yes":true,"no":false,"int":-42,"double":0.5,"whole":2,"inf":null,"text":"é\u0000\"","list":[[],{},{"k":[1]}]}"#)
        #expect(String(decoding: value.prettyEncoded(), as: UTF8.self) == """
            {
              "null": null,
              "yes": true,
              "no": false,
              "int": -42,
              "double": 0.5,
              "whole": 2,
              "inf": null,
              "text": "é\\u0000\\"",
              "list": [
                [],
                {},
                {
                  "k": [
                    1
                  ]
                }
              ]
            }
            """)
        let large = JSONValue.array((0..<500).map { .string("member \($0) \"quoted\"") })
        let text = String(decoding: large.encoded(), as: UTF8.self)
        #expect(text.utf8.count > 8 * 1024)
        #expect(text.hasPrefix(#"["member 0 \"quoted\"","member 1 \"quoted\"","#))
        #expect(try JSONValue(parsing: text) == large)
        #expect(large.compactString == text)
    }

    /// The word-at-a-time scan agrees with a byte-at-a-time one for every byte value at every
    /// position of a word, beside plain bytes, and for the ASCII flag.
    @Test func scansStringsEightBytesAtATimeExactly() {
        for length in [1, 7, 8, 9, 16, 17, 23] {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    let isSpecial = value < 0x20 || value == 0x22 || value == 0x5C
                    bytes.withUnsafeBufferPointer { buffer in
                        var nonASCII = false
                        let found = StringBytes.firstSpecial(in: buffer, from: 0, nonASCII: &nonASCII)
                        #expect(found == (isSpecial ? position : length))
                        #expect(nonASCII == (value >= 0x80))
                        var fromNext = false
                        let next = StringBytes.firstSpecial(in: buffer, from: position + 1, nonASCII: &fromNext)
                        #expect(next == length && !fromNext)
                    }
                }
            }
        }
        let mixed = Array("é\u{7F}plain \"quoted\" \\ tab\t".utf8)
        mixed.withUnsafeBufferPointer { buffer in
            var nonASCII = false
            #expect(StringBytes.firstSpecial(in: buffer, from: 0, nonASCII: &nonASCII) == 9)
            #expect(nonASCII)
        }
    }

    @Test func objectSubscriptRemovesAndKeepsPosition() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = nil
        object["a"] = 9
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == 9)
    }
}
