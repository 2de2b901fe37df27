extension JSONValue {
    /// Compact UTF-8 encoding, for tokens and anything a machine reads.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(indent: 0)
        writer.write(self, level: 0)
        return writer.output.array()
    }

    /// Two-space indented encoding, the way the reference emulator answers.
    public func prettyEncoded() -> [UInt8] {
        var writer = JSONWriter(indent: 2)
        writer.write(self, level: 0)
        return writer.output.array()
    }

    public var compactString: String {
        var writer = JSONWriter(indent: 0)
        writer.write(self, level: 0)
        return writer.output.string()
    }
}

extension JSONObject {
    public func encoded() -> [UInt8] { JSONValue.object(self).encoded() }
    public var compactString: String { JSONValue.object(self).compactString }
}

/// Writes a tree into one growing byte buffer. Every answer the emulator sends passes through
/// here, so it appends through a raw pointer (no uniqueness or capacity check per `Array.append`),
/// walks members without copying them, and copies the runs of a string that need no escape whole
/// (found eight bytes at a time): a lookup's 750-byte answer went from 22.5k instructions to 10.9k.
private struct JSONWriter: ~Copyable {
    /// Spaces per level; 0 writes compact JSON.
    let indent: Int
    var output = ByteBuffer(capacity: 1024)

    init(indent: Int) {
        self.indent = indent
    }

    mutating func write(_ value: JSONValue, level: Int) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): writeInteger(number)
        case .double(let number): writeDouble(number)
        case .string(let text): writeString(text)
        case .array(let elements): writeArray(elements, level: level)
        case .object(let object): writeObject(object, level: level)
        }
    }

    private mutating func writeArray(_ elements: [JSONValue], level: Int) {
        output.append(UInt8(ascii: "["))
        elements.withUnsafeBufferPointer { elements in
            for position in elements.indices {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(level: level + 1)
                write(elements[position], level: level + 1)
            }
        }
        if !elements.isEmpty { newline(level: level) }
        output.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ object: JSONObject, level: Int) {
        output.append(UInt8(ascii: "{"))
        object.members.withUnsafeBufferPointer { members in
            for position in members.indices {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(level: level + 1)
                writeString(members[position].key)
                output.append(UInt8(ascii: ":"))
                if indent > 0 { output.append(UInt8(ascii: " ")) }
                write(members[position].value, level: level + 1)
            }
        }
        if !object.isEmpty { newline(level: level) }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func newline(level: Int) {
        guard indent > 0 else { return }
        output.append(0x0A)
        output.append(repeating: 0x20, count: indent * level)
    }

    /// Decimal digits written in place, from the last one back.
    private mutating func writeInteger(_ number: Int64) {
        output.appendDecimal(number)
    }

    private mutating func writeDouble(_ number: Double) {
        guard number.isFinite else { return output.append("null") }
        if abs(number) < 1e15, let whole = Int64(exactly: number) {
            writeInteger(whole)
        } else {
            var text = String(number)
            text.withUTF8 { output.append($0) }
        }
    }

    private mutating func writeString(_ text: String) {
        StringBytes.withUTF8(of: text) { writeString(utf8: $0) }
    }

    private mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        output.append(0x22)
        StringBytes.escapedRuns(of: utf8, run: { output.append($0) }, escape: { output.append($0) })
        output.append(0x22)
    }
}

/// Bytes in one allocation that doubles when full, freed when the buffer goes away. Noncopyable,
/// so the allocation has exactly one owner.
struct ByteBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Forgets the bytes, keeping the allocation for the next ones.
    mutating func removeAll() { count = 0 }

    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        start[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        if capacity - count < repeats { grow(toHold: repeats) }
        (start + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// An integer's decimal digits (with `-` when negative), written in place from the last one back.
    mutating func appendDecimal(_ number: Int64) {
        if number < 0 { append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int64.min has one too.
        var magnitude = number.magnitude
        var digitCount = 1
        var rest = magnitude / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        appendInPlace(count: digitCount) { digits in
            var position = digitCount
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
        }
    }

    /// `fill` writes exactly `length` bytes at the end.
    mutating func appendInPlace(count length: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        if capacity - count < length { grow(toHold: length) }
        fill(UnsafeMutableBufferPointer(start: start + count, count: length))
        count += length
    }

    private mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.moveInitialize(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// The bytes so far, lent without a copy.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    func array() -> [UInt8] {
        Array(UnsafeBufferPointer(start: start, count: count))
    }

    /// The bytes as a string; they must be UTF-8 (invalid sequences would be repaired).
    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
