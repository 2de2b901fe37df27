/// A deliberately separate, minimal DER codec for `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`
/// (RFC 3279), so tests can cross the raw r‖s ⇄ DER boundary without going through the code under test.
enum ECDSASignatureDER {
    /// Raw 64-byte r‖s from DER; nil if the DER is not what a P-256 signer produces.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        var reader = Reader(bytes: der)
        guard reader.take() == 0x30, let sequenceLength = reader.length(), sequenceLength == reader.remaining,
            let r = reader.integer(), let s = reader.integer(), reader.remaining == 0,
            let paddedR = leftPad(r, to: 32), let paddedS = leftPad(s, to: 32)
        else { return nil }
        return paddedR + paddedS
    }

    /// Minimal DER for a raw 64-byte r‖s.
    static func der(fromRaw raw: [UInt8]) -> [UInt8] {
        precondition(raw.count == 64)
        let body = integer(Array(raw[0..<32])) + integer(Array(raw[32..<64]))
        return [0x30] + length(body.count) + body
    }

    private static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty { content = [0] }
        if content[0] & 0x80 != 0 { content.insert(0, at: 0) }  // keep it positive
        return [0x02] + length(content.count) + content
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }

    private static func leftPad(_ magnitude: [UInt8], to width: Int) -> [UInt8]? {
        let trimmed = Array(magnitude.drop { $0 == 0 })
        guard trimmed.count <= width else { return nil }
        return [UInt8](repeating: 0, count: width - trimmed.count) + trimmed
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var remaining: Int { bytes.count - index }

        mutating func take() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func length() -> Int? {
            guard let first = take() else { return nil }
            if first < 0x80 { return Int(first) }
            guard first == 0x81, let next = take() else { return nil }
            return Int(next)
        }

        mutating func integer() -> [UInt8]? {
            guard take() == 0x02, let count = length(), count > 0, count <= remaining else { return nil }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
    }
}
