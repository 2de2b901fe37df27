/// Percent-encoding as bytes, for the two encoders below: ASCII letters and digits and the given
/// punctuation stay, a space becomes `+` when `spaceAsPlus`, anything else `%XX` in upper-case hex.
struct PercentEncoder: Sendable {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    /// Whether each byte value stays as it is.
    private let kept: [Bool]
    private let spaceAsPlus: Bool

    init(keepingAlphanumericsAnd punctuation: String, spaceAsPlus: Bool) {
        var kept = [Bool](repeating: false, count: 256)
        for byte in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + Array(punctuation.utf8) {
            kept[Int(byte)] = true
        }
        self.kept = kept
        self.spaceAsPlus = spaceAsPlus
    }

    /// Runs of kept bytes are copied whole.
    func append(_ text: String, to encoded: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            kept.withUnsafeBufferPointer { kept in append(utf8, keeping: kept, to: &encoded) }
        }
    }

    /// The table read through a buffer pointer: each action link encodes about a kilobyte here.
    private func append(_ utf8: UnsafeBufferPointer<UInt8>, keeping kept: UnsafeBufferPointer<Bool>, to encoded: inout [UInt8]) {
        var runStart = 0
        for (position, byte) in utf8.enumerated() where !kept[Int(byte)] {
            encoded.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            if spaceAsPlus && byte == UInt8(ascii: " ") {
                encoded.append(UInt8(ascii: "+"))
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(Self.hexDigits[Int(byte >> 4)])
                encoded.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        encoded.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    /// `name=value&…` with both sides encoded.
    func query(_ pairs: [(name: String, value: String)]) -> String {
        var encoded: [UInt8] = []
        // Room for every byte once, and some escapes, so an action link rarely grows its storage.
        encoded.reserveCapacity(pairs.reduce(32) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        for (position, pair) in pairs.enumerated() {
            if position > 0 { encoded.append(UInt8(ascii: "&")) }
            append(pair.name, to: &encoded)
            encoded.append(UInt8(ascii: "="))
            append(pair.value, to: &encoded)
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}

/// Percent-encoding as JavaScript's `encodeURIComponent` does it: everything but
/// `A–Z a–z 0–9 - _ . ! ~ * ' ( )` is escaped, so the value survives as one query component
/// (the SDKs decode links exactly one level per nesting).
enum URIComponent {
    private static let encoder = PercentEncoder(keepingAlphanumericsAnd: "-_.!~*'()", spaceAsPlus: false)

    static func encode(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoder.append(text, to: &encoded)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `name=value&…` with both sides encoded.
    static func query(_ pairs: [(String, String)]) -> String {
        encoder.query(pairs.map { (name: $0.0, value: $0.1) })
    }
}
