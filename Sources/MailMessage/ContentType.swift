/// A header value of the form `token; name=value; name="quoted value"` (Content-Type,
/// Content-Disposition), with RFC 2231's `name*=charset''percent-encoded` and `name*0=` continuations.
struct HeaderParameters {
    /// The value before the first `;`, lower-cased.
    let token: String
    private var values: [String: String] = [:]

    init(_ header: String) {
        var pieces = Self.splitOutsideQuotes(header)
        token = pieces.isEmpty ? "" : pieces.removeFirst().trimmingCharacters(in: " \t").lowercased()
        var continued: [String: [(Int, String, Bool)]] = [:]
        for piece in pieces {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = piece[..<equals].trimmingCharacters(in: " \t").lowercased()
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: " \t")
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = Self.unquote(String(value.dropFirst().dropLast()))
            }
            let extended = name.hasSuffix("*")
            if extended { name.removeLast() }
            if let star = name.lastIndex(of: "*"), let index = Int(name[name.index(after: star)...]) {
                continued[String(name[..<star]), default: []].append((index, value, extended))
                continue
            }
            values[name] = extended ? Self.decodeExtended(value, first: true) : value
        }
        for (name, sections) in continued where values[name] == nil {
            values[name] = sections.sorted { $0.0 < $1.0 }.map { section in
                section.2 ? Self.decodeExtended(section.1, first: section.0 == 0) : section.1
            }.joined()
        }
    }

    func value(_ name: String) -> String? { values[name.lowercased()] }

    private static func splitOutsideQuotes(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" && quoted { current.append(character); escaped = true; continue }
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted { pieces.append(current); current = ""; continue }
            current.append(character)
        }
        pieces.append(current)
        return pieces
    }

    private static func unquote(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped { result.append(character); escaped = false } else if character == "\\" { escaped = true } else { result.append(character) }
        }
        return result
    }

    /// `utf-8'en'%E2%82%AC` (the charset and language only on the first section).
    private static func decodeExtended(_ value: String, first: Bool) -> String {
        var charset = "us-ascii"
        var encoded = Substring(value)
        if first {
            let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
            if pieces.count == 3 {
                charset = String(pieces[0])
                encoded = pieces[2]
            }
        }
        var bytes: [UInt8] = []
        var index = encoded.utf8.startIndex
        let utf8 = encoded.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
               let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return Charset.decode(bytes, charset: charset)
    }
}

/// `Content-Type`: the media type (lower-cased; `text/plain` when absent, RFC 2045 §5.2) and
/// its parameters.
struct ContentType {
    let mediaType: String
    let parameters: HeaderParameters

    init(_ header: String?) {
        parameters = HeaderParameters(header ?? "")
        mediaType = parameters.token.contains("/") ? parameters.token : "text/plain"
    }

    var isMultipart: Bool { mediaType.hasPrefix("multipart/") }
}
