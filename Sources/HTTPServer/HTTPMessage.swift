// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.

/// Header fields in arrival order; lookups ignore case.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = [] {
        didSet { nameLengths = Self.nameLengths(of: fields) }
    }
    /// One bit for each length (modulo 64) that a field's name has. A request is asked for
    /// several fields it does not have (`Origin`, `Authorization`, `Accept`…): a name of a length
    /// none has is absent without a look at any field.
    private var nameLengths: UInt64 = 0

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
        nameLengths = Self.nameLengths(of: self.fields)
    }

    /// The fields as the server collected them, taken as they are (the public initializer's
    /// relabelling copy cast every field at run time: 2% of a `GET /`).
    init(collected fields: [(name: String, value: String)]) {
        self.fields = fields
        nameLengths = Self.nameLengths(of: fields)
    }

    private static func nameLengths(of fields: [(name: String, value: String)]) -> UInt64 {
        fields.reduce(0) { $0 | lengthBit($1.name) }
    }

    private static func lengthBit(_ name: String) -> UInt64 { 1 << UInt64(name.utf8.count & 63) }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        guard nameLengths & Self.lengthBit(name) != 0 else { return nil }
        // Fields read in place: `first(where:)` copied (retained and released) every field it passed.
        return fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.sameName(fields[index].name, name) { return fields[index].value }
            return nil
        }
    }

    /// Field names are ASCII tokens: compare them byte by byte, folding case, with no new strings
    /// (every request looks up several names among all its fields). Lengths first, and then the
    /// bytes in place: a `zip` of the two UTF-8 views was a tenth of the lookups' cost.
    static func sameName(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        let compared = first.utf8.withContiguousStorageIfAvailable { first in
            second.utf8.withContiguousStorageIfAvailable { second in sameName(first, second) }
        }
        if let compared, let result = compared { return result }
        return zip(first.utf8, second.utf8).allSatisfy(sameNameByte)
    }

    static func sameName(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        for index in first.indices where !sameNameByte(first[index], second[index]) { return false }
        return true
    }

    /// Equal bytes, or the same ASCII letter in either case.
    private static func sameNameByte(_ first: UInt8, _ second: UInt8) -> Bool {
        first == second || (first | 0x20 == second | 0x20 && (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.sameName($0.name, name) }
        fields.append((name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

public struct HTTPRequest: Sendable {
    /// Upper-case method, e.g. `POST`.
    public var method: String
    /// The path as libmicrohttpd hands it over (percent-decoded), without the query string.
    public var path: String
    /// Query parameters in order, percent-decoded. A key without `=` has an empty value.
    public var query: [(name: String, value: String)]
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of the query parameter `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// What a handler answers: a response now, or one later.
public enum HTTPReply: Sendable {
    case now(HTTPResponse)
    /// The connection is suspended, holding no server thread, until `completion` is given the
    /// response. `begin` runs once the connection is suspended, on the calling thread.
    case later(_ begin: @Sendable (_ completion: ResponseCompletion) -> Void)
}

/// What the server calls for every request, on one of its own threads. It must not block for long
/// and must never throw: every failure becomes a response.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The server calls this one; by default it answers `respond(to:)` at once.
    func reply(to request: HTTPRequest) -> HTTPReply
    /// The answer when a body exceeds `Configuration.maximumBodyBytes` (the server sends it with 413).
    func respondToOversizedBody(limit: Int) -> HTTPResponse
    /// The answer for a deferred request still waiting when the server shuts down.
    func respondToShutdown() -> HTTPResponse
    /// The answer for a request refused before it reached the handler (a limit of
    /// `Configuration.limits`, malformed framing); the server sends it with `refusal.status`.
    func respondToRefusal(_ refusal: HTTPRefusal) -> HTTPResponse
}

extension HTTPHandler {
    public func reply(to request: HTTPRequest) -> HTTPReply { .now(respond(to: request)) }

    public func respondToShutdown() -> HTTPResponse { HTTPResponse(status: 503) }

    public func respondToRefusal(_ refusal: HTTPRefusal) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: refusal.status, headers: headers, body: Array("\(refusal)\n".utf8))
    }
}
