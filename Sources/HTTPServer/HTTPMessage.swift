// CONTRACT (agreed API, used by AuthEmulator): keep these public signatures; add freely.

/// Header fields in arrival order; lookups ignore case.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Field names are ASCII tokens: compare them byte by byte, folding case, with no new strings
    /// (every request looks up several names among all its fields).
    static func sameName(_ first: String, _ second: String) -> Bool {
        let first = first.utf8, second = second.utf8
        guard first.count == second.count else { return false }
        return zip(first, second).allSatisfy { $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
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
