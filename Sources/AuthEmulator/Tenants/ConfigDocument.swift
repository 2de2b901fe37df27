import JSON

/// Dotted-path access and the `updateMask` merge shared by the project and tenant config
/// documents (reference §11.2: each masked path is copied from the body when present; an empty
/// mask replaces the whole document).
enum ConfigDocument {
    /// `"a.b,c"` → `[["a","b"],["c"]]`; blank entries are dropped.
    static func maskPaths(_ mask: String?) -> [[String]] {
        guard let mask else { return [] }
        return mask.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            .map { $0.split(separator: ".").map(String.init) }
    }

    /// Copies each masked path from `body` into `document`; a path absent from the body is
    /// cleared (the field mask semantics: "set to what the body says, which is nothing"). A path
    /// that indexes into a primitive or an array (`displayName.0`) changes nothing, as in the
    /// reference.
    static func merge(_ body: JSONObject, into document: JSONObject, paths: [[String]]) -> JSONObject {
        var result = document
        for path in paths where !indexesIntoALeaf(path, body) && !indexesIntoALeaf(path, document) {
            set(value(at: path, in: body), at: path, in: &result)
        }
        return result
    }

    /// Whether a member on the way to `path`'s last field exists but is not an object.
    private static func indexesIntoALeaf(_ path: [String], _ object: JSONObject) -> Bool {
        var current = object
        for field in path.dropLast() {
            guard let member = current[field], !member.isNull else { return false }
            guard let nested = member.objectValue else { return true }
            current = nested
        }
        return false
    }

    static func value(at path: [String], in object: JSONObject) -> JSONValue? {
        guard let first = path.first else { return .object(object) }
        guard let member = object[first] else { return nil }
        if path.count == 1 { return member }
        guard let nested = member.objectValue else { return nil }
        return value(at: Array(path.dropFirst()), in: nested)
    }

    /// Sets (or, with `nil`, removes) the member at `path`, creating intermediate objects.
    static func set(_ value: JSONValue?, at path: [String], in object: inout JSONObject) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var nested = object[first]?.objectValue ?? JSONObject()
        set(value, at: Array(path.dropFirst()), in: &nested)
        object[first] = .object(nested)
    }

    static func bool(_ path: String, in object: JSONObject) -> Bool? {
        value(at: fields(of: path), in: object)?.boolValue
    }

    static func string(_ path: String, in object: JSONObject) -> String? {
        value(at: fields(of: path), in: object)?.stringValue
    }

    static func object(_ path: String, in object: JSONObject) -> JSONObject? {
        value(at: fields(of: path), in: object)?.objectValue
    }

    /// `"signIn.allowDuplicateEmails"` → `["signIn", "allowDuplicateEmails"]`, split at the dot's
    /// byte (as the Character split did for these ASCII paths, empty fields dropped alike): the
    /// Character split was ~12k instructions of every IdP sign-in, which reads
    /// `allowDuplicateEmails` (bench/instructions idp-returning 726.8k -> 717.2k).
    private static func fields(of path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: ".")).map { String(Substring($0)) }
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
