import Foundation
import Testing

@testable import AuthEmulator

/// The standard-library string edits that stand in for Foundation's in the emulator answer as
/// Foundation's do (this test target may link Foundation; the emulator does not).
@Suite struct TextEditingTests {
    static let samples = ["", " ", "a", "  a b\t", "\t\n x \r\n", "\u{00A0}wide\u{3000}", "é ", "\n\n"]

    @Test(arguments: samples)
    func trimmingMatchesFoundation(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespace(newlines: true) == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.dropFirst(0).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: [
        ("a+b+c", "+", " "), ("\\%_", "\\", "\\\\"), ("x\r\ny\r\n", "\r\n", "\n"), ("aaa", "aa", "b"),
        ("", "x", "y"), ("no match", "zz", "y"), ("<é>", "<", "\\u003c"), ("2024-01-01T10", "T", " "),
    ])
    func replacingMatchesFoundation(_ text: String, _ target: String, _ replacement: String) {
        #expect(text.replacingEvery(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }

    @Test(arguments: ["%41%62c", "caf%C3%A9", "100%", "%zz", "%4", "%FF", "plain", "a%2Bb+c", "%E2%82%AC%20", ""])
    func percentDecodingMatchesFoundation(_ text: String) {
        #expect(PercentDecoding.decode(text) == text.removingPercentEncoding)
    }

    @Test func findsASCIIIgnoringCase() {
        let html = "<!doctype html><HTML><Head><title>x</title>"
        let range = html.rangeIgnoringASCIICase(of: "<head>")
        #expect(range.map { String(html[$0]) } == "<Head>")
        #expect("<p>é</p>".rangeIgnoringASCIICase(of: "<head>") == nil)
        #expect("".rangeIgnoringASCIICase(of: "<head>") == nil)
    }
}
