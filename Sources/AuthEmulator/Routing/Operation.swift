import JSON

/// Which credentials an operation takes (reference §1.2).
enum Access: Sendable {
    /// An API key, or `Bearer owner` for admin behaviour: most Identity Toolkit operations.
    case apiKeyOrOwner
    /// An API key only: the Secure Token service.
    case apiKeyOnly
    /// Nothing: the emulator's own routes.
    case open
}

/// One REST operation, named by its Google discovery `operationId`.
struct Operation: Sendable {
    typealias Handler = @Sendable (OperationRequest) throws -> JSONObject

    let id: String
    let access: Access
    /// `nil` for operations the emulator does not build: they answer 501 after authentication.
    let handler: Handler?

    init(_ id: String, _ access: Access = .apiKeyOrOwner, _ handler: Handler?) {
        self.id = id
        self.access = access
        self.handler = handler
    }

    /// An operation that answers `501 <id> is not implemented in the Auth Emulator.`
    static func unimplemented(_ id: String, _ access: Access = .apiKeyOrOwner) -> Operation {
        Operation(id, access, nil)
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
