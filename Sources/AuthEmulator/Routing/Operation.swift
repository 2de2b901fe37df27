import HTML
import JSON

/// Which credentials an operation takes (reference §1.2).
enum Access: Sendable {
    /// An API key, or `Bearer owner` for admin behaviour: most Identity Toolkit operations.
    case apiKeyOrOwner
    /// An API key only: the Secure Token service.
    case apiKeyOnly
    /// Nothing, and credentials are not even read: the emulator's own routes and pages (a fake
    /// Graph call may carry `Authorization: Bearer <facebook token>`, which must not 401).
    case open
}

/// How an operation's failures are shown to whoever called it.
enum ErrorStyle: Sendable {
    /// `{"error":{"code":400,"message":"CODE : detail",…}}`: every Google API route.
    case google
    /// `{"authEmulator":{"error":"…"}}`: the official emulator's non-REST routes.
    case emulator
    /// An HTML page naming the problem: pages a person or an app's browser opens.
    case html
    /// Graph's `{"error":{"message","type":"OAuthException","code",…}}`: the fake Facebook `/me`.
    case graph
}

/// What an operation answers. The router renders it; operations never see HTTP.
enum OperationResult: Sendable {
    case json(JSONObject, status: Int = 200)
    /// A JSON answer already written, as `prettyEncoded()` writes it (hot answers written member by
    /// member with `JSONStreamWriter` instead of built as a `JSONObject` first, e.g. a lookup).
    case encodedJSON([UInt8], status: Int = 200)
    case html(HTML, status: Int = 200)
    /// `303 See Other` to `location`: a form post answered the way browsers expect.
    case redirect(location: String)
    /// A file to save (`Content-Disposition: attachment`), such as a message's `.eml` source.
    case download([UInt8], contentType: String, fileName: String)
    /// Answered later, without holding a server thread: `begin` gets the one-shot answer.
    case deferred(@Sendable (DeferredAnswer) -> Void)

    static func ok(_ object: JSONObject) -> OperationResult { .json(object) }
}

/// The one-shot answer to a deferred operation; the first `complete` wins.
struct DeferredAnswer: Sendable {
    let complete: @Sendable (OperationResult) -> Void
}

/// One REST operation, named by its Google discovery `operationId`.
struct Operation: Sendable {
    typealias Handler = @Sendable (OperationRequest) throws -> OperationResult

    let id: String
    let access: Access
    /// `nil` for operations the emulator does not build: they answer 501 after authentication.
    let handler: Handler?
    var errorStyle = ErrorStyle.google
    /// Whether body keys are camel-cased at every depth as the reference does (`refresh_token` →
    /// `refreshToken`). Off for bodies holding free-form maps, such as minted `claims`.
    var camelCasesBody = true
    /// The body fields and query parameters it reads (`FieldCatalogue`, by operation id).
    let fields: OperationFields

    init(_ id: String, _ access: Access = .apiKeyOrOwner, result handler: Handler?) {
        self.id = id
        self.access = access
        self.handler = handler
        fields = FieldCatalogue.fields(of: id)
    }

    /// An operation whose answer is always a 200 JSON object.
    init(_ id: String, _ access: Access = .apiKeyOrOwner, _ handler: @escaping @Sendable (OperationRequest) throws -> JSONObject) {
        self.init(id, access, result: { .json(try handler($0)) })
    }

    /// An operation that answers `501 <id> is not implemented in the Auth Emulator.`
    static func unimplemented(_ id: String, _ access: Access = .apiKeyOrOwner) -> Operation {
        Operation(id, access, result: nil)
    }

    func rendering(errorsAs style: ErrorStyle) -> Operation {
        var copy = self
        copy.errorStyle = style
        return copy
    }

    func keepingBodyKeys() -> Operation {
        var copy = self
        copy.camelCasesBody = false
        return copy
    }
}

struct Route: Sendable {
    let method: String
    let pattern: PathPattern
    let operation: Operation

    init(_ method: String, _ template: String, _ operation: Operation) {
        self.method = method
        self.pattern = PathPattern(template)
        self.operation = operation
    }
}
