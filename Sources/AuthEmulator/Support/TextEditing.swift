/// The few string edits the emulator needs, on the standard library alone: Foundation's versions
/// (`trimmingCharacters`, `replacingOccurrences`, `removingPercentEncoding`) would link all of
/// Foundation and its ICU data into the binary for a handful of calls.
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (and line breaks, when `newlines`).
    func trimmingWhitespace(newlines: Bool = false) -> String {
        func isTrimmed(_ character: Character) -> Bool { character.isWhitespace && (newlines || !character.isNewline) }
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// Every occurrence of `target` (compared byte for byte) replaced, left to right.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        let text = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, text.count >= needle.count else { return String(self) }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var position = 0
        while position < text.count {
            if position + needle.count <= text.count, text[position] == needle[0],
               text[position..<position + needle.count].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                position += needle.count
            } else {
                result.append(text[position])
                position += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension String {
    /// The first occurrence of an ASCII `target`, ignoring ASCII case.
    func rangeIgnoringASCIICase(of target: String) -> Range<String.Index>? {
        func lowered(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
        let needle = target.utf8.map(lowered)
        guard !needle.isEmpty else { return nil }
        var start = utf8.startIndex
        while let end = utf8.index(start, offsetBy: needle.count, limitedBy: utf8.endIndex) {
            if utf8[start..<end].map(lowered) == needle { return start..<end }
            start = utf8.index(after: start)
        }
        return nil
    }
}

/// `%XX` escapes decoded; nil when an escape is malformed or the bytes are not UTF-8 (as
/// Foundation's `removingPercentEncoding` answers).
enum PercentDecoding {
    static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "%") else {
                decoded.append(bytes[position])
                position += 1
                continue
            }
            guard position + 2 < bytes.count, let high = hexValue(bytes[position + 1]), let low = hexValue(bytes[position + 2])
            else { return nil }
            decoded.append(high << 4 | low)
            position += 3
        }
        return String(validating: decoded, as: UTF8.self)
    }
}
