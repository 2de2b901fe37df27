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

    @Test func objectSubscriptRemovesAndKeepsPosition() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = nil
        object["a"] = 9
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == 9)
    }
}
