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
        markup = stringInterpolation.markup
    }

    public var description: String { markup }

    public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(trusted: lhs.markup + rhs.markup) }

    /// The fragments one after another.
    public static func joined(_ fragments: some Sequence<HTML>) -> HTML {
        HTML(trusted: fragments.map(\.markup).joined())
    }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// Literal parts of the template are markup.
        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text: escaped for element content and quoted attribute values alike.
        public mutating func appendInterpolation(_ text: some StringProtocol) {
            markup += HTML.escape(text)
        }

        public mutating func appendInterpolation(_ number: Int) {
            markup += String(number)
        }

        public mutating func appendInterpolation(_ text: String?) {
            if let text { markup += HTML.escape(text) }
        }

        /// Another fragment: nested as it is.
        public mutating func appendInterpolation(_ fragment: HTML) {
            markup += fragment.markup
        }

        public mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { markup += fragment.markup }
        }
    }

    /// `&`, `<`, `>`, `"` and `'` as character references: enough for text and quoted attributes.
    public static func escape(_ text: some StringProtocol) -> String { escape(String(text)) }

    /// The same for a `String`, which is what callers nearly always have: concrete, so callers in
    /// other modules do not go through the generic one's protocol witnesses.
    public static func escape(_ text: String) -> String {
        // By bytes: the five are ASCII, which never occurs inside a multi-byte UTF-8 sequence, and
        // appending scalar by scalar to a String was an eighth of an email-link request's CPU.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}

extension HTML {
    /// A whole page: doctype, UTF-8, a viewport for phones, the title and an inline stylesheet.
    public static func page(title: String, style: HTML = "", body: HTML) -> HTML {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title><style>\(style)</style></head>
        <body>\(body)</body></html>
        """
    }
}
