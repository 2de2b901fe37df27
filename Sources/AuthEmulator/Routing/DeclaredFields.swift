import JSON

/// The JSON type of a declared field, as the OpenAPI document shows it.
indirect enum FieldType: Sendable {
    case string, integer, number, boolean
    case array(FieldType)
    /// A nested object with declared fields of its own.
    case object([Field])
    /// Free-form keys (minted `claims`, test phone numbers), each value of one type (`.any`: any JSON).
    case map(FieldType)
    case any
}

/// One field of a request body, or one query parameter.
struct Field: Sendable {
    let name: String
    let type: FieldType
    var isRequired = false

    init(_ name: String, _ type: FieldType, required: Bool = false) {
        self.name = name
        self.type = type
        self.isRequired = required
    }

    static func string(_ name: String, required: Bool = false) -> Field { Field(name, .string, required: required) }
    static func integer(_ name: String, required: Bool = false) -> Field { Field(name, .integer, required: required) }
    static func number(_ name: String, required: Bool = false) -> Field { Field(name, .number, required: required) }
    static func boolean(_ name: String, required: Bool = false) -> Field { Field(name, .boolean, required: required) }
    static func strings(_ name: String) -> Field { Field(name, .array(.string)) }
    static func object(_ name: String, _ fields: [Field]) -> Field { Field(name, .object(fields)) }
    static func objects(_ name: String, _ fields: [Field]) -> Field { Field(name, .array(.object(fields))) }
    static func map(_ name: String, of values: FieldType = .any) -> Field { Field(name, .map(values)) }
}

/// What one operation reads: its body's fields and its query parameters. The OpenAPI document is
/// made from these, our own routes refuse names not among them, and in debug builds a read of a
/// name not declared fails the request (`UndeclaredReads`), so the declarations cannot drift from
/// the code.
struct OperationFields: Sendable {
    var body: [Field] = []
    var query: [Field] = []
    /// Our own routes refuse names they do not know; Google's routes accept them, as the official
    /// emulator (whose schemas never set `additionalProperties: false`) does.
    var refusesUnknown = false
    /// The body is a form post (pages and the console), not JSON.
    var isForm = false

    /// Query parameters every route takes: the API key (Google's system parameter), which our own
    /// routes ignore rather than refuse, since test helpers append it everywhere.
    static let systemQuery: Set<String> = ["key"]

    var declaredBody: DeclaredObject { DeclaredObject(body) }

    /// Refuses a body member or query parameter this operation does not declare, naming the
    /// nearest declared one when it is close (`hide_email` → `hideEmail`).
    func refuseUnknown(body: JSONObject, query: [(name: String, value: String)]) throws(AuthError) {
        guard refusesUnknown else { return }
        try declaredBody.refuseUnknown(in: body, prefix: "")
        let parameters = query.map(\.name)
        for name in parameters where !Self.systemQuery.contains(name) && !self.query.contains(where: { $0.name == name }) {
            throw AuthError.unknownField(name, kind: "query parameter", suggestion: NearestName.among(self.query.map(\.name), to: name))
        }
    }
}

/// A declared object's fields by name: what a `RequestBody` checks its reads against.
struct DeclaredObject: Sendable {
    let fields: [Field]

    init(_ fields: [Field]) { self.fields = fields }

    func field(_ name: String) -> Field? { fields.first { $0.name == name } }

    fileprivate func refuseUnknown(in object: JSONObject, prefix: String) throws(AuthError) {
        for (name, value) in object.members {
            guard let field = field(name) else {
                throw AuthError.unknownField(prefix + name, kind: "field", suggestion: NearestName.among(fields.map(\.name), to: name).map { prefix + $0 })
            }
            if case .object(let nested) = field.type, case .object(let member) = value {
                try DeclaredObject(nested).refuseUnknown(in: member, prefix: "\(prefix)\(name).")
            }
        }
    }
}

extension AuthError {
    static func unknownField(_ name: String, kind: String, suggestion: String?) -> AuthError {
        let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? "."
        return AuthError.invalid("INVALID_ARGUMENT : unknown \(kind) \"\(name)\"\(hint)")
    }
}

/// The declared name a mistyped one most likely meant: the same letters ignoring case and `_`/`-`
/// (`hide_email`), or at most two edits away (a third of the name at most), else none.
enum NearestName {
    static func among(_ candidates: [String], to name: String) -> String? {
        let folded = fold(name)
        if let same = candidates.first(where: { fold($0) == folded }) { return same }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            guard let distance = edits(from: fold(candidate), toFolded: folded) else { continue }
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The edits from `candidate` to `name`, both folded, when within the limit: at most two, and
    /// a third of the name at most. Names whose lengths differ by more are not compared at all.
    static func edits(from candidate: String, toFolded name: String) -> Int? {
        let limit = min(2, max(1, name.count / 3))
        guard abs(candidate.count - name.count) <= limit else { return nil }
        let distance = editDistance(Array(candidate), Array(name))
        return distance <= limit ? distance : nil
    }

    static func fold(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Edits (insert, delete, replace, swap two neighbours) from one name to the other; names
    /// are short, so the quadratic table is tiny.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

/// Debug builds only: the names an operation read that its declaration lacks, or read as another
/// type. The router turns any into a 500 naming them, so a test of the code path fails.
final class UndeclaredReads: Sendable {
    private let notes = Locked<[String]>([])

    func note(_ text: String) {
        notes.withLock { $0.append(text) }
    }

    var all: [String] { notes.withLock { $0 } }
}

/// How an accessor reads a field, to compare with the declared type.
enum FieldRead: String, Sendable {
    case string, integer, boolean, strings, objects, object, presence, value

    func accepts(_ type: FieldType) -> Bool {
        switch (self, type) {
        case (.presence, _), (.value, _), (_, .any): return true
        // Numbers and booleans are read as strings where the Admin SDKs send either.
        case (.string, .string), (.string, .integer), (.string, .number), (.string, .boolean): return true
        case (.integer, .integer), (.integer, .string), (.integer, .number): return true
        case (.boolean, .boolean): return true
        case (.strings, .array(.string)), (.strings, .array(.integer)): return true
        case (.objects, .array(.object)), (.objects, .array(.map)), (.objects, .array(.any)): return true
        case (.object, .object), (.object, .map): return true
        default: return false
        }
    }
}

/// What a `RequestBody` checks its reads against, in debug builds: the declared object, where in
/// the body it is (`signIn.`), and where to note a read the declaration lacks.
struct FieldCheck: Sendable {
    let operationId: String
    let declared: DeclaredObject
    let path: String
    let reads: UndeclaredReads

    func read(_ name: String, as kind: FieldRead) {
        guard let field = declared.field(name) else {
            reads.note("\(operationId) reads \(path)\(name) (\(kind.rawValue)), which it does not declare")
            return
        }
        if !kind.accepts(field.type) {
            reads.note("\(operationId) reads \(path)\(name) as \(kind.rawValue), declared \(field.type)")
        }
    }

    /// The check of a nested object's reads, when the field declares its members.
    /// Under an undeclared field, every member read is undeclared too; a map's members are free.
    func nested(_ name: String) -> FieldCheck? {
        let members: [Field]
        switch declared.field(name)?.type {
        case .object(let fields)?: members = fields
        case nil: members = []
        default: return nil
        }
        return FieldCheck(operationId: operationId, declared: DeclaredObject(members), path: "\(path)\(name).", reads: reads)
    }
}
