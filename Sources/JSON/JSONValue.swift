/// A JSON document as a value. Objects keep their keys in insertion order, so what we write reads
/// the way we built it (and the way the reference emulator orders its responses).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// Integers stay exact (epoch milliseconds, counters); everything else is a `double`.
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a whole number, when it is one (a double with no fraction counts).
    public var int64Value: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// Member lookup that tolerates non-objects: `json["a"]?["b"]`.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(pairs: elements))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A JSON object whose keys keep the order in which they were first set.
///
/// Members live in one array in order; most objects have a handful, so a lookup is a short scan.
/// A large object (a parsed document with many keys) also gets a key index, so that building or
/// reading it never turns quadratic.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    /// Position of each key in `members`, kept once there are more than `scanLimit` of them.
    private var positions: [String: Int]?
    private static let scanLimit = 16

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(pairs: elements)
    }

    /// A later pair with the same key replaces the earlier one's value, in its place.
    init(pairs: [(String, JSONValue)]) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        // Lengths first: they differ for most keys, and reading one is cheaper than a String
        // comparison, which is a runtime call (building a user's answer compares every new key
        // against every earlier one).
        let length = key.utf8.count
        return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
    }

    /// Setting `nil` removes the key; setting an existing key keeps its position.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            let existing = position(of: key)
            switch (existing, newValue) {
            case (let position?, let newValue?):
                members[position].value = newValue
            case (nil, let newValue?):
                // Room for eight at the first member: an array grown one by one reallocated at
                // 1, 2, 4 and 8 members, and most objects we build have a handful or a dozen.
                if members.capacity == 0 { members.reserveCapacity(8) }
                members.append((key, newValue))
                if positions != nil {
                    positions![key] = members.count - 1
                } else if members.count > Self.scanLimit {
                    positions = Dictionary(members.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { $1 })
                }
            case (let position?, nil):
                members.remove(at: position)
                if positions != nil {
                    positions = Dictionary(members.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { $1 })
                }
            case (nil, nil):
                break
            }
        }
    }

    /// Sets `key` only when `value` is non-nil: the way optional response fields are omitted.
    public mutating func setIfPresent(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }

    /// Copies every member of `other` over this object, in `other`'s order.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other.members { self[key] = value }
    }

    /// Equal when they hold the same members, in any order (as JSON objects are).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Order-independent, to agree with `==`: each member hashed alone, the results summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
