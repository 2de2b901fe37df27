import JSON

/// A request's JSON body with typed, validating accessors. Reading a member of the wrong type
/// fails the way the reference emulator's schema check does (`/email must be string`); numbers are
/// accepted where strings are expected, because the Admin SDKs send `validSince` and friends as numbers.
struct RequestBody: Sendable {
    let object: JSONObject
    /// Debug builds: the operation's declared fields, which every read is checked against. Nil in
    /// release builds, and for bodies made in code or free-form maps.
    var check: FieldCheck?

    init(_ object: JSONObject = JSONObject()) {
        self.object = object
    }

    /// The same body, its reads checked against `check`.
    func checking(_ check: FieldCheck?) -> RequestBody {
        var copy = self
        copy.check = check
        return copy
    }

    /// Parses a body and normalises its keys to camelCase (`refresh_token` → `refreshToken`) at
    /// every depth, as the reference emulator does. An empty body is an empty object.
    init(parsing bytes: [UInt8], camelCasing: Bool = true) throws(AuthError) {
        guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            self.init()
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw AuthError.invalidArgument("\(error)", reason: "parseError")
        }
        guard case .object(let object) = value else {
            throw AuthError.invalidArgument("Request body must be a JSON object", reason: "parseError")
        }
        self.init(camelCasing ? Self.camelCased(object) : object)
    }

    /// A body built from form fields (`application/x-www-form-urlencoded`); the first of a repeated
    /// field wins.
    init(formFields: [(name: String, value: String)], camelCasing: Bool = true) {
        var object = JSONObject()
        for field in formFields where object[field.name] == nil {
            object[field.name] = .string(field.value)
        }
        self.init(camelCasing ? Self.camelCased(object) : object)
    }

    func has(_ key: String) -> Bool {
        check?.read(key, as: .presence)
        if let value = object[key] { return !value.isNull }
        return false
    }

    /// A string member; numbers and booleans are converted, `null` counts as absent.
    func string(_ key: String) throws(AuthError) -> String? {
        check?.read(key, as: .string)
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return JSONValue.double(number).compactString
        case .bool(let flag): return flag ? "true" : "false"
        default: throw typeError(key, "string")
        }
    }

    /// A string member that counts only when non-empty (the reference's JavaScript truthiness).
    func nonEmptyString(_ key: String) throws(AuthError) -> String? {
        guard let text = try string(key), !text.isEmpty else { return nil }
        return text
    }

    func bool(_ key: String) throws(AuthError) -> Bool? {
        check?.read(key, as: .boolean)
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        default: throw typeError(key, "boolean")
        }
    }

    /// A whole number, given as a JSON number or a string of digits.
    func int64(_ key: String) throws(AuthError) -> Int64? {
        check?.read(key, as: .integer)
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text):
            guard let number = Int64(text) else { throw typeError(key, "integer") }
            return number
        default:
            guard let number = value.int64Value else { throw typeError(key, "integer") }
            return number
        }
    }

    func stringArray(_ key: String) throws(AuthError) -> [String]? {
        check?.read(key, as: .strings)
        return try array(key, of: "string") { element in
            switch element {
            case .string(let text): return text
            case .int(let number): return String(number)
            default: return nil
            }
        }
    }

    func objectArray(_ key: String) throws(AuthError) -> [JSONObject]? {
        check?.read(key, as: .objects)
        return try array(key, of: "object") { $0.objectValue }
    }

    /// An array member whose every element `convert` accepts; the first it refuses is reported
    /// by its JSON pointer (`/email/1 must be string`).
    private func array<Element>(
        _ key: String, of type: String, _ convert: (JSONValue) -> Element?
    ) throws(AuthError) -> [Element]? {
        guard let value = object[key] else { return nil }
        if value.isNull { return nil }
        guard let elements = value.arrayValue else { throw typeError(key, "array") }
        var converted: [Element] = []
        for (index, element) in elements.enumerated() {
            guard let member = convert(element) else { throw AuthError.invalidArgument("/\(key)/\(index) must be \(type)") }
            converted.append(member)
        }
        return converted
    }

    func nested(_ key: String) throws(AuthError) -> RequestBody? {
        check?.read(key, as: .object)
        guard let value = object[key] else { return nil }
        if value.isNull { return nil }
        guard let member = value.objectValue else { throw typeError(key, "object") }
        return RequestBody(member).checking(check?.nested(key))
    }

    /// A member as it is, for operations that take any JSON there (declared `.any` or a map).
    func value(_ key: String) -> JSONValue? {
        check?.read(key, as: .value)
        return object[key]
    }

    private func typeError(_ key: String, _ type: String) -> AuthError {
        AuthError.invalidArgument("/\(key) must be \(type)")
    }

    static func camelCased(_ object: JSONObject) -> JSONObject {
        // Nearly every body is camelCase already: then it is kept as it is, not rebuilt.
        guard hasSeparatedKeys(.object(object)) else { return object }
        var result = JSONObject()
        for (key, value) in object.members {
            result[camelCase(key)] = camelCased(value)
        }
        return result
    }

    private static func camelCased(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): return .object(camelCased(object))
        case .array(let elements): return .array(elements.map(camelCased))
        default: return value
        }
    }

    private static func hasSeparatedKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): object.members.contains { isSeparated($0.key) || hasSeparatedKeys($0.value) }
        case .array(let elements): elements.contains(where: hasSeparatedKeys)
        default: false
        }
    }

    private static func isSeparated(_ key: String) -> Bool {
        // Bytes, not `String.contains`: this runs for every key of every body.
        key.utf8.contains { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// `grant_type` → `grantType`. Keys without separators are left alone, so `iOSBundleId` survives.
    static func camelCase(_ key: String) -> String {
        guard isSeparated(key) else { return key }
        var result = ""
        var upperNext = false
        for character in key {
            if character == "_" || character == "-" {
                upperNext = !result.isEmpty
            } else if upperNext {
                result.append(contentsOf: character.uppercased())
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
