/// Percent-encoding as JavaScript's `encodeURIComponent` does it: everything but
/// `A–Z a–z 0–9 - _ . ! ~ * ' ( )` is escaped, so the value survives as one query component
/// (the SDKs decode links exactly one level per nesting).
enum URIComponent {
    static func encode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"),
                UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// `name=value&…` with both sides encoded.
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
