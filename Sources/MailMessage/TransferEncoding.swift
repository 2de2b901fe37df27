#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// Content-Transfer-Encoding (RFC 2045 §6): base64 and quoted-printable decoded; 7bit, 8bit,
/// binary and anything unknown passed through as they are.
enum TransferEncoding {
    static func decode(_ body: ArraySlice<UInt8>, encoding: String?) -> [UInt8] {
        switch encoding?.trimmingCharacters(in: " \t").lowercased() {
        case "base64": return base64(body) ?? Array(body)
        case "quoted-printable": return quotedPrintable(body, underscoreIsSpace: false)
        default: return Array(body)
        }
    }

    /// Base64 with line breaks and other stray characters ignored, as RFC 2045 §6.8 asks.
    static func base64(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        Data(base64Encoded: Data(bytes), options: .ignoreUnknownCharacters).map { Array($0) }
    }

    /// `=XX` escapes and `=` soft line breaks (RFC 2045 §6.7); in encoded words (`Q`), `_` is a space.
    static func quotedPrintable(_ bytes: ArraySlice<UInt8>, underscoreIsSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                let next = bytes.index(after: index)
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { index = next + 1; continue }
                if next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                    index = next + 2
                    continue
                }
                if next + 1 < bytes.endIndex, let high = hexValue(bytes[next]), let low = hexValue(bytes[next + 1]) {
                    output.append(high << 4 | low)
                    index = next + 2
                    continue
                }
            }
            output.append(underscoreIsSpace && byte == UInt8(ascii: "_") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Text in a named charset turned into a String; an unknown charset or invalid bytes fall back to
/// UTF-8 with replacement characters, so a badly labelled message still shows.
enum Charset {
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        let name = (charset ?? "us-ascii").trimmingCharacters(in: " \t\"").lowercased()
        switch name {
        case "utf-8", "utf8", "us-ascii", "ascii", "":
            return String(decoding: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1", "iso8859-1", "l1":
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        default:
            // Everything else (windows-1252, iso-8859-2, utf-16, shift_jis, euc-jp, iso-2022-jp, …)
            // through the C library's iconv, which knows the tables.
            if let utf8 = Iconv.convertToUTF8(bytes, from: name) { return String(decoding: utf8, as: UTF8.self) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
