import HTML
import Testing

@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscaped() {
        let name = "<script>alert('x') & \"y\"</script>"
        let fragment: HTML = "<p title=\"\(name)\">\(name)</p>"
        #expect(
            fragment.markup
                == "<p title=\"&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;\">&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;</p>"
        )
    }

    /// Escapes at the very start and end, none at all, multi-byte text around them, and a Substring.
    @Test func escapingCopiesTheRunsBetweenReferencesIntact() {
        #expect(HTML.escape("") == "")
        #expect(HTML.escape("plain text, nothing to escape") == "plain text, nothing to escape")
        #expect(HTML.escape("&é<ü>'") == "&amp;é&lt;ü&gt;&#39;")
        #expect(HTML.escape("\"x\"") == "&quot;x&quot;")
        let long = String(repeating: "é", count: 200) + "&" + String(repeating: "z", count: 200)
        #expect(HTML.escape(long) == String(repeating: "é", count: 200) + "&amp;" + String(repeating: "z", count: 200))
        let link = "https://example.com/a?b=1&c=2"
        let fragment: HTML = "<a href=\"\(link)\">\(link.dropFirst(8))</a>"
        #expect(fragment.markup == "<a href=\"https://example.com/a?b=1&amp;c=2\">example.com/a?b=1&amp;c=2</a>")
    }

    @Test func nestedFragmentsAreKeptVerbatimAndEscapedOnce() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<div>\(inner)\([inner, inner])</div>"
        #expect(outer.markup == "<div><b>a&amp;b</b><b>a&amp;b</b><b>a&amp;b</b></div>")
    }

    @Test func optionalTextAndNumbers() {
        let missing: String? = nil
        let fragment: HTML = "<i>\(missing)</i><i>\(42)</i>"
        #expect(fragment.markup == "<i></i><i>42</i>")
    }

    @Test func pageHasDoctypeCharsetAndEscapedTitle() {
        let page = HTML.page(title: "A<B", body: "<main></main>")
        #expect(page.markup.hasPrefix("<!DOCTYPE html>"))
        #expect(page.markup.contains("<meta charset=\"utf-8\">"))
        #expect(page.markup.contains("<title>A&lt;B</title>"))
    }

    @Test func pageIsTheWholeDocumentAndItsBytesAreTheSame() {
        let page = HTML.page(title: "A&B", style: "p{color:red}", body: "<p>\("x<y")</p>")
        #expect(page.markup == """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>A&amp;B</title><style>p{color:red}</style></head>
            <body><p>x&lt;y</p></body></html>
            """)
        let bytes = HTML.pageBytes(title: "A&B", styleMarkup: "p{color:red}", bodyMarkup: Array("<p>x&lt;y</p>".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == page.markup)
    }
}
