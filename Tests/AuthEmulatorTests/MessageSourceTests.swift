@testable import AuthEmulator
import Testing

/// The `.eml` encoders' edge cases (Tests/python/test_outbox_filters.py parses whole messages with
/// Python's `email` package).
@Suite struct MessageSourceTests {
    @Test func quotedPrintableEscapesAndSoftBreaks() {
        #expect(MessageSource.quotedPrintable("a=b\nend \ncafé") == "a=3Db\r\nend=20\r\ncaf=C3=A9")
        #expect(MessageSource.quotedPrintable("one\r\ntwo\rthree") == "one\r\ntwo\r\nthree")
        let long = MessageSource.quotedPrintable(String(repeating: "é", count: 40))
        let lines = long.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("=") })
        // An escape is never split by a soft break.
        #expect(lines.allSatisfy { !$0.dropLast().hasSuffix("=") && !$0.hasSuffix("=C") })
    }

    @Test func encodedWordsSplitBetweenCharactersAndFitTheLine() {
        let words = MessageSource.encodedWords(String(repeating: "日本語", count: 10), firstLineRoom: 78 - "Subject".count - 2)
        #expect(words.count == 3)
        #expect(words.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") && $0.count <= 75 })
        #expect("Subject: ".count + words[0].count <= 78)
        let header = MessageSource.folded(name: "Subject", value: "Réinitialisez\r\nvotre mot de passe")
        #expect(header == "Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3Nl?=\r\n")
        #expect(MessageSource.folded(name: "To", value: "zoë@example.com") == "To: zoë@example.com\r\n")
    }

    @Test func datesAreRFC5322() {
        #expect(MessageSource.rfc5322Date(Instant(millisecondsSinceEpoch: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(MessageSource.rfc5322Date(Instant(millisecondsSinceEpoch: 1_700_000_000_000)) == "Tue, 14 Nov 2023 22:13:20 +0000")
    }
}
