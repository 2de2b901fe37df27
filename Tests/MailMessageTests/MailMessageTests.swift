import Testing

@testable import MailMessage

@Suite struct MailMessageTests {
    func parse(_ text: String) -> MailMessage { MailMessage(raw: Array(text.utf8)) }

    @Test func aPlainMessageHasItsHeadersUnfoldedAndItsText() {
        let message = parse("From: App <app@example.com>\r\nTo: a@example.com,\r\n  \"Lovelace, Ada\" <ada@example.com>\r\nSubject: Hello\r\n there\r\n\r\nBody line\r\n")
        #expect(message.subject == "Hello there")
        #expect(message.addresses("To") == ["a@example.com", "ada@example.com"])
        #expect(message.addresses("From") == ["app@example.com"])
        #expect(message.text == "Body line\r\n")
        #expect(message.html == nil)
    }

    @Test func encodedWordsAreDecoded() {
        let message = parse("Subject: =?UTF-8?B?w4lsw6h2ZQ==?= =?utf-8?Q?_caf=C3=A9?= ok\r\nFrom: =?iso-8859-1?q?Andr=E9?= <andre@example.com>\r\n\r\n")
        #expect(message.subject == "Élève café ok")
        #expect(message.headers["From"] == "André <andre@example.com>")
        #expect(message.addresses("From") == ["andre@example.com"])
    }

    @Test func multipartAlternativeWithQuotedPrintableAndBase64() {
        let raw = """
        MIME-Version: 1.0\r
        Content-Type: multipart/alternative; boundary="b1"\r
        \r
        preamble\r
        --b1\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Transfer-Encoding: quoted-printable\r
        \r
        Caf=C3=A9 soft=\r
        break\r
        --b1\r
        Content-Type: text/html; charset="utf-8"\r
        Content-Transfer-Encoding: base64\r
        \r
        PHA+SGk8L3A+\r
        --b1--\r
        epilogue\r
        """
        let message = parse(raw)
        #expect(message.text == "Café softbreak")
        #expect(message.html == "<p>Hi</p>")
        #expect(message.attachments.isEmpty)
    }

    @Test func mixedWithNestedAlternativeAndAttachments() {
        let raw = """
        Content-Type: multipart/mixed; boundary=outer\r
        \r
        --outer\r
        Content-Type: multipart/alternative; boundary=inner\r
        \r
        --inner\r
        Content-Type: text/plain\r
        \r
        text part\r
        --inner\r
        Content-Type: text/html\r
        \r
        <b>html part</b>\r
        --inner--\r
        --outer\r
        Content-Type: application/pdf; name="receipt.pdf"\r
        Content-Disposition: attachment; filename="receipt.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQK\r
        --outer\r
        Content-Type: text/plain\r
        Content-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.txt\r
        \r
        notes\r
        --outer\r
        Content-Type: image/png\r
        Content-ID: <logo@x>\r
        Content-Disposition: inline\r
        \r
        png\r
        --outer--\r
        """
        let message = parse(raw)
        #expect(message.text == "text part")
        #expect(message.html == "<b>html part</b>")
        #expect(message.attachments == [
            .init(filename: "receipt.pdf", contentType: "application/pdf", size: 9, disposition: "attachment", contentId: nil),
            .init(filename: "résumé.txt", contentType: "text/plain", size: 5, disposition: "attachment", contentId: nil),
            .init(filename: nil, contentType: "image/png", size: 3, disposition: "inline", contentId: "logo@x"),
        ])
        // Each attachment's bytes, decoded, for a download.
        #expect(message.attachmentContent(at: 0) == Array("%PDF-1.4\n".utf8))
        #expect(message.attachmentContent(at: 1) == Array("notes".utf8))
        #expect(message.attachmentContent(at: 2) == Array("png".utf8))
        #expect(message.attachmentContent(at: 3) == nil)
    }

    @Test func eightBitLatin1AndAnHTMLOnlyMessage() {
        var raw = Array("Content-Type: text/html; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<p>".utf8)
        raw += [0xE9, 0xE8]
        raw += Array("</p>".utf8)
        let message = MailMessage(raw: raw)
        #expect(message.html == "<p>éè</p>")
        #expect(message.text == nil)
    }

    @Test func malformedInputStillReads() {
        #expect(parse("").text == "")
        #expect(parse("no headers at all").text == "no headers at all")
        let unclosed = parse("Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhalf")
        #expect(unclosed.text == "half")
        let noBoundary = parse("Content-Type: multipart/mixed\r\n\r\nbody")
        #expect(noBoundary.attachments.count == 1)
        #expect(parse("Subject: =?utf-8?B?!!!?= x\r\n\r\n").subject == "=?utf-8?B?!!!?= x")
        #expect(parse("Subject: =?bogus?X?abc?=\r\n\r\n").subject == "=?bogus?X?abc?=")
    }

    @Test func deepNestingStopsAtTheLimit() {
        var raw = ""
        for depth in 0..<40 { raw += "Content-Type: multipart/mixed; boundary=b\(depth)\r\n\r\n--b\(depth)\r\n" }
        raw += "Content-Type: text/plain\r\n\r\ndeep\r\n"
        let message = parse(raw)
        #expect(message.text == nil)
        #expect(message.attachments.count == 1)
    }
}
