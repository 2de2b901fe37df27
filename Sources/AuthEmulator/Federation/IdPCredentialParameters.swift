import JSON

#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// The credential parameters of a signInWithIdp request (reference §3.1 step 3): `requestUri`'s
/// query, overwritten by `postBody`, overwritten by `requestUri`'s fragment.
struct IdPCredentialParameters: Sendable {
    /// In first-seen order; a later source replaces a value in place, as `URLSearchParams.set` does.
    private var pairs: [(name: String, value: String)] = []
    private var base = ""

    /// The request URI with the merged parameters as its query and no fragment, as the official
    /// emulator names it in errors.
    var normalizedRequestUri: String {
        pairs.isEmpty ? base : base + "?" + FormURLEncoding.encode(pairs)
    }

    init(requestUri: String?, postBody: String?) throws(AuthError) {
        guard let requestUri, !requestUri.isEmpty else { throw AuthError.invalid("MISSING_REQUEST_URI") }
        guard Self.hasScheme(requestUri) else { throw AuthError.invalid("INVALID_REQUEST_URI") }
        var withoutFragment = requestUri
        var fragment: Substring?
        if let hash = Self.firstIndex(of: "#", in: requestUri) {
            withoutFragment = String(requestUri[..<hash])
            fragment = requestUri[requestUri.index(after: hash)...]
        }
        base = withoutFragment
        if let question = Self.firstIndex(of: "?", in: withoutFragment) {
            base = String(withoutFragment[..<question])
            merge(Self.formPairs(withoutFragment[withoutFragment.index(after: question)...]))
        }
        // A WHATWG URL with an authority and no path gets "/" (`http://localhost` → `http://localhost/`).
        if let authority = Self.endOfSchemeSeparator(in: base), !base[authority...].utf8.contains(UInt8(ascii: "/")) {
            base += "/"
        }
        if let postBody { merge(Self.lenientPairs(postBody)) }
        if let fragment { merge(Self.formPairs(fragment)) }
    }

    // The request URI is nearly always ASCII (`http://localhost`), where each byte is a Character
    // ("\r\n" aside, which is never what is looked for), so the searches below read bytes; text with
    // other characters takes the Character searches, which treat combining marks as they always
    // did. Character and `_StringProcessing` searches were 25k instructions of every Apple sign-in.

    /// `text.firstIndex(of: character)` for an ASCII `character`.
    private static func firstIndex(of character: Character, in text: String) -> String.Index? {
        guard isASCII(text) else { return text.firstIndex(of: character) }
        let byte = character.asciiValue!
        return text.utf8.firstIndex(of: byte)
    }

    /// Where the first `://` ends, as `text.firstRange(of: "://")?.upperBound`.
    private static func endOfSchemeSeparator(in text: String) -> String.Index? {
        guard isASCII(text) else { return text.firstRange(of: "://")?.upperBound }
        let utf8 = text.utf8
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            let rest = utf8[utf8.index(after: colon)...]
            if rest.starts(with: "//".utf8) { return utf8.index(colon, offsetBy: 3) }
            index = utf8.index(after: colon)
        }
        return nil
    }

    private static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    subscript(name: String) -> String? {
        guard let value = pairs.first(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    private mutating func merge(_ incoming: [(String, String)]) {
        for (name, value) in incoming {
            if let index = pairs.firstIndex(where: { $0.name == name }) {
                pairs[index].value = value
                pairs = pairs.enumerated().filter { $0.offset <= index || $0.element.name != name }.map(\.element)
            } else {
                pairs.append((name, value))
            }
        }
    }

    /// `scheme:` first, as an absolute URL must start (`http://localhost`, `app-1-2://firebaseauth/link`).
    private static func hasScheme(_ uri: String) -> Bool {
        if isASCII(uri) {
            // The same rule by bytes: an ASCII letter, then ASCII letters, digits and `+-.` up to `:`.
            let utf8 = uri.utf8
            guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex else { return false }
            let scheme = utf8[..<colon]
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            return isLetter(scheme.first!)
                && scheme.allSatisfy { byte in
                    isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                }
        }
        guard let colon = uri.firstIndex(of: ":"), colon != uri.startIndex else { return false }
        let scheme = uri[..<colon]
        return scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// URL query semantics: `+` is a space, `%XX` decoded. Later pairs win.
    private static func formPairs(_ text: Substring) -> [(String, String)] {
        FormURLEncoding.decode(String(text)).map { ($0.name, $0.value) }
    }

    /// The Apple SDK writes `postBody` from `URLComponents.query`, the percent-DECODED form, so raw
    /// JWTs, nonces and the Apple `user` JSON arrive unescaped; other SDKs percent-encode. So: split
    /// at `&`, then at the first `=`, keep `+` as it is, and decode `%XX` only where that gives
    /// valid UTF-8.
    static func lenientPairs(_ text: String) -> [(String, String)] {
        // Delimiters found eight bytes at a time (`ByteSearch`): a postBody holds a whole JWT, and
        // `split` and `contains` walked it a byte at a time, twice (with CompactJWT's dot search,
        // bench/instructions idp-returning 741.7k -> 726.8k). Splitting valid UTF-8 at ASCII bytes
        // leaves valid UTF-8, so the parts decode without repairs.
        func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
            let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard ByteSearch.contains(UInt8(ascii: "%"), in: bytes, range: range) else { return raw }
            return PercentDecoding.decode(raw) ?? raw
        }
        var text = text
        return text.withUTF8 { bytes in
            var pairs: [(String, String)] = []
            var start = 0
            while start < bytes.count {
                let end = ByteSearch.firstIndex(of: UInt8(ascii: "&"), in: bytes, range: start..<bytes.count)
                // Empty parts (`a=1&&b=2`, a leading or trailing `&`) are skipped, as `split` skips them.
                if end > start {
                    let equals = ByteSearch.firstIndex(of: UInt8(ascii: "="), in: bytes, range: start..<end)
                    pairs.append(
                        equals == end
                            ? (decode(bytes, start..<end), "") : (decode(bytes, start..<equals), decode(bytes, equals + 1..<end)))
                }
                start = end + 1
            }
            return pairs
        }
    }
}
