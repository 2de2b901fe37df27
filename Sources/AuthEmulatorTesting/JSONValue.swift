import Foundation

/// A JSON document as a value: request bodies and the parts of answers the kit does not type
/// (claims, a sign-in answer's less common fields). Literals build it:
/// `["email": "ada@example.com", "emailVerified": true]`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    public var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    public var doubleValue: Double? { if case .number(let number) = self { number } else { nil } }
    public var intValue: Int? { doubleValue.flatMap { Int(exactly: $0) } }
    public var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    public var isNull: Bool { self == .null }

    /// Parses UTF-8 JSON text.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Compact JSON text.
    public var text: String {
        String(decoding: (try? JSONEncoder.sortedKeys.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// Decodes the value as `T` (e.g. a kit type, or the caller's own `Decodable`).
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder.sortedKeys.encode(self))
    }

    /// The object with `other`'s members added (theirs win); other values are returned unchanged.
    public func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.merge(other) { _, new in new }
        return .object(members)
    }
}

extension JSONEncoder {
    /// Sorted keys: bodies and messages read the same from run to run.
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number):
            // Whole numbers as integers: `{"seconds":60}`, not `60.0`.
            if let whole = Int64(exactly: number) { try container.encode(whole) } else { try container.encode(number) }
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { text }
}
