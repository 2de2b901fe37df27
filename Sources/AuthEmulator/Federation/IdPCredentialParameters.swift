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
        if let hash = requestUri.firstIndex(of: "#") {
            withoutFragment = String(requestUri[..<hash])
            fragment = requestUri[requestUri.index(after: hash)...]
        }
        base = withoutFragment
        if let question = withoutFragment.firstIndex(of: "?") {
            base = String(withoutFragment[..<question])
            merge(Self.formPairs(withoutFragment[withoutFragment.index(after: question)...]))
        }
        // A WHATWG URL with an authority and no path gets "/" (`http://localhost` → `http://localhost/`).
        if let authority = base.firstRange(of: "://"), !base[authority.upperBound...].utf8.contains(UInt8(ascii: "/")) {
            base += "/"
        }
        if let postBody { merge(Self.lenientPairs(postBody)) }
        if let fragment { merge(Self.formPairs(fragment)) }
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
        // Split on a byte buffer: a postBody holds a whole JWT, and walking it through
        // `String.UTF8View` indices was 3% of an Apple sign-in's CPU. Splitting valid UTF-8 at
        // ASCII bytes leaves valid UTF-8, so the parts decode without repairs.
        func decode(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            let raw = String(decoding: part, as: UTF8.self)
            guard part.contains(UInt8(ascii: "%")) else { return raw }
            return PercentDecoding.decode(raw) ?? raw
        }
        var text = text
        return text.withUTF8 { bytes in
            bytes.split(separator: UInt8(ascii: "&")).map { pair in
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (decode(pair), "") }
                return (decode(pair[..<equals]), decode(pair[(equals + 1)...]))
            }
        }
    }
}
