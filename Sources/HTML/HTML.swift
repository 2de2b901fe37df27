/// A fragment of HTML that is safe to send. Built from a string literal whose interpolations
/// escape by default (`"<p>\(name)</p>"` shows a user called `<script>` as text) and nest other
/// `HTML` values verbatim, so escaping happens exactly once, where text meets markup.
public struct HTML: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup, already escaped.
    public private(set) var markup: String

    /// Markup the caller vouches for: literal tags, or output of another `HTML`.
    public init(trusted markup: String) {
        self.markup = markup
    }

    public init(stringLiteral value: String) {
        markup = value
    }

    public init(stringInterpolation: Interpolation) {
        markup = String(decoding: stringInterpolation.bytes, as: UTF8.self)
    }

    public var description: String { markup }

    public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(trusted: lhs.markup + rhs.markup) }

    /// The fragments one after another.
    public static func joined(_ fragments: some Sequence<HTML>) -> HTML {
        HTML(trusted: fragments.map(\.markup).joined())
    }

    /// Collects UTF-8 bytes, made into the markup string once at the end: an email's page has a few
    /// dozen parts, and appending each to a String, escaped into a String of its own first, was most
    /// of rendering it.
    public struct Interpolation: StringInterpolationProtocol {
        var bytes: [UInt8] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 32 * interpolationCount)
        }

        /// Literal parts of the template are markup.
        public mutating func appendLiteral(_ literal: String) {
            bytes.append(contentsOf: literal.utf8)
        }

        /// Text: escaped for element content and quoted attribute values alike.
        public mutating func appendInterpolation(_ text: String) {
            HTML.appendEscaped(text, to: &bytes)
        }

        public mutating func appendInterpolation(_ text: some StringProtocol) {
            HTML.appendEscaped(String(text), to: &bytes)
        }

        public mutating func appendInterpolation(_ number: Int) {
            bytes.append(contentsOf: String(number).utf8)
        }

        public mutating func appendInterpolation(_ text: String?) {
            if let text { HTML.appendEscaped(text, to: &bytes) }
        }

        /// Another fragment: nested as it is.
        public mutating func appendInterpolation(_ fragment: HTML) {
            bytes.append(contentsOf: fragment.markup.utf8)
        }

        public mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { bytes.append(contentsOf: fragment.markup.utf8) }
        }
    }

    /// `&`, `<`, `>`, `"` and `'` as character references: enough for text and quoted attributes.
    public static func escape(_ text: some StringProtocol) -> String { escape(String(text)) }

    /// The same for a `String`, which is what callers nearly always have: concrete, so callers in
    /// other modules do not go through the generic one's protocol witnesses.
    public static func escape(_ text: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &escaped)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// By bytes: the five are ASCII, which never occurs inside a multi-byte UTF-8 sequence. The runs
    /// between them are copied whole. All five are at most `>`: a byte above it (letters, most of
    /// a text) is passed with one comparison.
    public static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for position in utf8.indices {
                let byte = utf8[position]
                if byte > UInt8(ascii: ">") { continue }
                let reference: StaticString
                switch byte {
                case UInt8(ascii: "&"): reference = "&amp;"
                case UInt8(ascii: "<"): reference = "&lt;"
                case UInt8(ascii: ">"): reference = "&gt;"
                case UInt8(ascii: "\""): reference = "&quot;"
                case UInt8(ascii: "'"): reference = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                output.append(reference)
                runStart = position + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }
}

extension HTML {
    /// A whole page: doctype, UTF-8, a viewport for phones, the title and an inline stylesheet.
    public static func page(title: String, style: HTML = "", body: HTML) -> HTML {
        HTML(trusted: String(decoding: pageBytes(title: title, styleMarkup: style.markup, bodyMarkup: Array(body.markup.utf8)), as: UTF8.self))
    }

    /// `page`'s bytes around markup that is already escaped: an email's body is written as bytes.
    /// Concrete types: a generic function called from another module runs unspecialised.
    public static func pageBytes(title: String, styleMarkup: String = "", bodyMarkup: [UInt8]) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(bodyMarkup.count + styleMarkup.utf8.count + 2 * title.utf8.count + 200)
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        page.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        appendEscaped(title, to: &page)
        page.append("</title><style>")
        page.append(contentsOf: styleMarkup.utf8)
        page.append("</style></head>\n<body>")
        page.append(contentsOf: bodyMarkup)
        page.append("</body></html>")
        return page
    }
}

extension [UInt8] {
    /// A literal's bytes, copied straight from where the compiler put them.
    public mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
