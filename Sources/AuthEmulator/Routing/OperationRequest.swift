import HTTPServer
import JSON

/// One call of an operation, after routing, authentication and project/tenant resolution.
struct OperationRequest: Sendable {
    let scope: UserScope
    /// Authenticated as the project owner (`Authorization: Bearer owner`): admin behaviour.
    let isPrivileged: Bool
    let body: RequestBody
    /// The body's `idToken`, when it decodes as a JWT.
    let decodedIDToken: DecodedIDToken?
    let query: [(name: String, value: String)]
    let environment: AuthEnvironment

    func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Runs `body` in one write transaction with one clock reading for the whole operation, so
    /// that every timestamp an operation writes agrees (`validSince` ≤ `auth_time` ≤ `iat`).
    func write<T>(_ body: (AccountsTransaction) throws -> T) throws -> T {
        let now = environment.clock.now()
        return try environment.store.write { try body(AccountsTransaction(store: $0, now: now, request: self)) }
    }

    func read<T>(_ body: (AccountsTransaction) throws -> T) throws -> T {
        let now = environment.clock.now()
        return try environment.store.read { try body(AccountsTransaction(store: $0, now: now, request: self)) }
    }
}

/// An operation's view of the store inside its one transaction.
struct AccountsTransaction {
    let store: StoreTransaction
    let now: Instant
    let request: OperationRequest

    var scope: UserScope { request.scope }
    var users: UserRepository { store.users }
    var identifiers: any IdentifierSource { request.environment.identifiers }

    func config() throws -> ProjectConfig {
        try store.projectConfigs.config(for: scope.projectId)
    }
}
