extension JSONValue {
    /// Compact UTF-8 encoding, for tokens and anything a machine reads.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(indent: nil)
        writer.write(self, level: 0)
        return writer.output
    }

    /// Two-space indented encoding, the way the reference emulator answers.
    public func prettyEncoded() -> [UInt8] {
        var writer = JSONWriter(indent: 2)
        writer.write(self, level: 0)
        return writer.output
    }

    public var compactString: String { String(decoding: encoded(), as: UTF8.self) }
}

extension JSONObject {
    public func encoded() -> [UInt8] { JSONValue.object(self).encoded() }
    public var compactString: String { JSONValue.object(self).compactString }
}

private struct JSONWriter {
    private static let hexDigits = Array("0123456789abcdef".utf8)
    let indent: Int?
    var output: [UInt8] = []

    init(indent: Int?) {
        self.indent = indent
        output.reserveCapacity(256)
    }

    mutating func write(_ value: JSONValue, level: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .int(let number): writeInteger(number)
        case .double(let number): writeDouble(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(level: level + 1)
                write(element, level: level + 1)
            }
            if !elements.isEmpty { newline(level: level) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(level: level + 1)
                writeString(member.key)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                write(member.value, level: level + 1)
            }
            if !object.isEmpty { newline(level: level) }
            output.append(UInt8(ascii: "}"))
        }
    }

    mutating func newline(level: Int) {
        guard let indent else { return }
        output.append(0x0A)
        var spaces = indent * level
        while spaces > 0 {
            let run = min(spaces, Self.spaces.count)
            output.append(contentsOf: Self.spaces[..<run])
            spaces -= run
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// Decimal digits written in place: `String(number)` made a string per number.
    mutating func writeInteger(_ number: Int64) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int64.min has one too.
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[position...])
        }
    }

    mutating func writeDouble(_ number: Double) {
        guard number.isFinite else { return append("null") }
        if abs(number) < 1e15, let whole = Int64(exactly: number) {
            writeInteger(whole)
        } else {
            append(String(number))
        }
    }

    mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeString(utf8: $0) }
    }

    private mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        output.append(0x22)
        // Copy the runs that need no escape whole (most strings are one), escaping the bytes between.
        var runStart = 0
        for (position, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                append("\\u00")
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        output.append(0x22)
    }

    mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }
}
