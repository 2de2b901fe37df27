/// Writes JSON member by member, for objects whose shape the caller knows (token payloads,
/// refresh-token records, the user objects of a lookup): no `JSONObject` is built, so no key is
/// looked up and no tree is made only to be walked once. The bytes are exactly what
/// `JSONValue.encoded()` (indent 0) or `prettyEncoded()` (indent 2) writes for the same members in
/// the same order: strings escaped alike, nested values walked alike.
///
/// The caller answers for the shape: keys unique within an object, every key followed by one
/// value, every `beginObject`/`beginArray` closed. Measured: an ID token's payload written here
/// costs about a quarter of building its `JSONObject` and encoding it (see IDTokenMinter).
public struct JSONStreamWriter: ~Copyable {
    /// The output so far, in one allocation that doubles when full (JSONWriter's buffer). Appending
    /// through a raw pointer: `Array.append(contentsOf:)` checked uniqueness and capacity and went
    /// through its generic copy for every two-byte piece (~90 instructions each, a third of the cost).
    private var output: ByteBuffer
    /// Spaces per level; 0 writes compact JSON.
    private let indent: Int
    /// Containers open around the next item.
    private var depth = 0
    /// Whether the current container has an item already (so the next one needs a comma).
    private var needsSeparator = false
    /// Whether a key was just written, so the next value follows it on the same line.
    private var afterKey = false

    /// `indent` 0 writes as `encoded()` does, 2 as `prettyEncoded()` does.
    public init(indent: Int = 0, capacity: Int = 512) {
        self.indent = indent
        output = ByteBuffer(capacity: capacity)
    }

    /// The JSON written so far.
    public var bytes: [UInt8] { output.array() }

    /// The JSON written so far, lent without a copy.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try output.withBytes(body)
    }

    /// Lends the JSON written since the last flush to `body` (to write it out), then forgets it:
    /// a long document goes out in pieces, its structure carrying on where it was.
    public mutating func flush(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try output.withBytes(body)
        output.removeAll()
    }

    // MARK: Structure

    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        depth += 1
        needsSeparator = false
    }

    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        depth += 1
        needsSeparator = false
    }

    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// A non-empty container ends on a line of its own when indented; an empty one is `{}`/`[]`.
    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if needsSeparator { newline() }
        append(bracket)
        needsSeparator = true
    }

    /// A member name known at compile time, written as it is: it must need no escaping (checked
    /// in debug builds).
    public mutating func key(_ key: StaticString) {
        separate()
        key.withUTF8Buffer { name in
            assert(!name.contains { StringBytes.isSpecial($0) }, "a StaticString key must need no escaping")
            // `"name":` with one capacity check: keys are most of a token payload's appends.
            let spaced = indent > 0
            output.appendInPlace(count: name.count + (spaced ? 4 : 3)) { out in
                out[0] = UInt8(ascii: "\"")
                if let source = name.baseAddress { (out.baseAddress! + 1).update(from: source, count: name.count) }
                out[name.count + 1] = UInt8(ascii: "\"")
                out[name.count + 2] = UInt8(ascii: ":")
                if spaced { out[name.count + 3] = UInt8(ascii: " ") }
            }
        }
        afterKey = true
    }

    /// A member name from data (a custom claim, a provider id), escaped. (Labelled, so that a
    /// literal key always takes the `StaticString` form, which has nothing to escape.)
    public mutating func key(escaping key: String) {
        separate()
        writeQuoted(key)
        append(indent > 0 ? ": " : ":")
        afterKey = true
    }

    // MARK: Values

    public mutating func string(_ value: String) {
        separate()
        writeQuoted(value)
        needsSeparator = true
    }

    /// One string value made of `prefix` (which must need no escaping) then `value`, escaped: the
    /// same bytes as the joined string, without joining it.
    public mutating func string(_ prefix: StaticString, _ value: String) {
        separate()
        append(UInt8(ascii: "\""))
        prefix.withUTF8Buffer { prefix in
            assert(!prefix.contains { StringBytes.isSpecial($0) }, "a StaticString prefix must need no escaping")
            append(prefix)
        }
        writeEscaped(value)
        append(UInt8(ascii: "\""))
        needsSeparator = true
    }

    /// `"key": "value"`, or nothing when `value` is nil: the way optional fields are omitted.
    public mutating func optionalString(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    public mutating func int(_ value: Int64) {
        separate()
        output.appendDecimal(value)
        needsSeparator = true
    }

    /// An integer as a string value (`"1700000000123"`): the same bytes as `string(String(value))`,
    /// without making the string. Firebase writes its int64 timestamps so.
    public mutating func decimalString(_ value: Int64) {
        separate()
        append(UInt8(ascii: "\""))
        output.appendDecimal(value)
        append(UInt8(ascii: "\""))
        needsSeparator = true
    }


    public mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        needsSeparator = true
    }

    public mutating func null() {
        separate()
        append("null")
        needsSeparator = true
    }

    /// As the tree writer writes a double: a whole number below 1e15 as an integer, a non-finite
    /// one as `null`, anything else as Swift prints it.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if abs(value) < 1e15, let whole = Int64(exactly: value) { return int(whole) }
        separate()
        var text = String(value)
        text.withUTF8 { append($0) }
        needsSeparator = true
    }

    /// Any value, walked as the tree writer walks it.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            members(of: object)
            endObject()
        }
    }

    /// An object's members, in order, inside this writer's current object (the object's own
    /// braces are not written).
    public mutating func members(of object: JSONObject) {
        for (key, value) in object.members {
            self.key(escaping: key)
            self.value(value)
        }
    }

    // MARK: Bytes

    private mutating func append(_ byte: UInt8) {
        output.append(byte)
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        output.append(bytes)
    }

    private mutating func append(_ text: StaticString) {
        output.append(text)
    }

    // MARK: Strings

    /// Before a key, or a value that does not follow a key: the comma after the previous item,
    /// and when indented, the new line and its indentation.
    @inline(__always)
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if needsSeparator { append(UInt8(ascii: ",")) }
        if depth > 0 { newline() }
    }

    private mutating func newline() {
        guard indent > 0 else { return }
        output.append(0x0A)
        output.append(repeating: 0x20, count: indent * depth)
    }

    private mutating func writeQuoted(_ text: String) {
        append(UInt8(ascii: "\""))
        writeEscaped(text)
        append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ text: String) {
        StringBytes.withUTF8(of: text) { writeEscaped(utf8: $0) }
    }

    private mutating func writeEscaped(utf8: UnsafeBufferPointer<UInt8>) {
        StringBytes.escapedRuns(of: utf8, run: { append($0) }, escape: { append($0) })
    }
}
