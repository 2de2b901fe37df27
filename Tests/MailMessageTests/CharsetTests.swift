import Testing

@testable import MailMessage

/// Charsets other than UTF-8 and Latin-1 go through the C library's iconv.
@Suite struct CharsetTests {
    @Test(arguments: [
        ("windows-1252", [0x93, 0x80, 0x94] as [UInt8], "\u{201C}€\u{201D}"),
        ("ISO-8859-2", [0xB1, 0xE6], "ąć"),
        ("windows-1251", [0xCF, 0xF0, 0xE8], "При"),
        ("Shift_JIS", [0x82, 0xA0, 0x82, 0xA2], "あい"),
        ("EUC-JP", [0xA4, 0xA2], "あ"),
        ("ISO-2022-JP", [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42, 0x21], "あ!"),
        ("UTF-16", [0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9], "Aé"),
        ("utf-16le", [0x41, 0x00, 0xE9, 0x00], "Aé"),
        ("\"utf-16be\"", [0x00, 0x41, 0x30, 0x42], "Aあ"),
    ])
    func decodes(_ charset: String, _ bytes: [UInt8], _ expected: String) {
        #expect(Charset.decode(bytes, charset: charset) == expected)
    }

    @Test func anUnknownCharsetOrInvalidBytesFallBackToUTF8() {
        #expect(Charset.decode(Array("café".utf8), charset: "x-no-such-charset") == "café")
        // 0x82 0xFF is no Shift_JIS character; a truncated ISO-2022-JP escape is incomplete.
        #expect(Charset.decode([0x41, 0x82, 0xFF], charset: "shift_jis") == "A\u{FFFD}\u{FFFD}")
        #expect(Charset.decode([0x41, 0x1B, 0x24], charset: "iso-2022-jp") == "A\u{1B}$")
    }

    @Test func aQuotedPrintableShiftJISBodyReads() {
        let raw = "Content-Type: text/plain; charset=Shift_JIS\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=82=A0=82=A2\r\n"
        #expect(MailMessage(raw: Array(raw.utf8)).text == "あい\r\n")
    }
}
