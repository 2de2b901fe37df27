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
    /// The API key the client sent (`?key=` or `X-Goog-Api-Key`), for links that carry it.
    var apiKey: String?
    /// The `{name}` parts of the route's path template.
    var pathParameters: [String: String] = [:]
    /// The `Host` header: where the client reached us, for links and issuers it will follow back.
    var host: String?
    /// The `Accept` header, read only by pages that answer a browser differently.
    var accept: String?
    /// The `Origin` and `Sec-Fetch-Site` headers, read only by the console's form posts (DESIGN §4.1).
    var originHeader: String?
    var fetchSite: String?
    let environment: AuthEnvironment
    /// Debug builds: the declared query parameters, which `queryValue` reads are checked against.
    var queryCheck: (operationId: String, parameters: [Field], reads: UndeclaredReads)?

    func queryValue(_ name: String) -> String? {
        if let queryCheck, !queryCheck.parameters.contains(where: { $0.name == name }) {
            queryCheck.reads.note("\(queryCheck.operationId) reads the query parameter \(name), which it does not declare")
        }
        return query.first { $0.name == name }?.value
    }

    /// A browser asked (`Accept: text/html`): pages answer HTML rather than the official JSON.
    var acceptsHTML: Bool { accept?.firstRange(of: "text/html") != nil }

    /// `http://<host>`, the emulator as this client reaches it.
    var origin: String { "http://\(host ?? environment.defaultHost)" }

    /// Runs `body` in one write transaction on this request's scope.
    func write<T>(_ body: (AccountsTransaction) throws -> T) throws -> T {
        try environment.write(in: scope, isPrivileged: isPrivileged, idToken: decodedIDToken, body)
    }

    func read<T>(_ body: (AccountsTransaction) throws -> T) throws -> T {
        try environment.read(in: scope, isPrivileged: isPrivileged, idToken: decodedIDToken, body)
    }
}

/// The domain's view of the store inside one transaction: a scope, one clock reading and the
/// repositories. It does not carry an HTTP request, so start-up import, key generation and the
/// command line use the same helpers as operations do.
struct AccountsTransaction {
    let store: StoreTransaction
    /// One clock reading for the whole transaction, so every timestamp it writes agrees
    /// (`validSince` ≤ `auth_time` ≤ `iat`).
    let now: Instant
    let scope: UserScope
    /// Admin behaviour (`Bearer owner`).
    let isPrivileged: Bool
    /// The request's `idToken`, already decoded, so `authenticate` need not parse it again.
    let decodedIDToken: DecodedIDToken?
    let environment: AuthEnvironment

    var users: UserRepository { store.users }
    var identifiers: any IdentifierSource { environment.identifiers }

    /// The project's settings, from the cache (they change rarely; the writer refreshes it).
    func config() throws -> ProjectConfig {
        try environment.projectConfigs.config(for: scope.projectId, store: store)
    }
}

extension AuthEnvironment {
    func write<T>(
        in scope: UserScope, isPrivileged: Bool = false, idToken: DecodedIDToken? = nil,
        _ body: (AccountsTransaction) throws -> T
    ) throws -> T {
        let now = clock.now()
        return try store.write { try body(transaction($0, now, scope, isPrivileged, idToken)) }
    }

    func read<T>(
        in scope: UserScope, isPrivileged: Bool = false, idToken: DecodedIDToken? = nil,
        _ body: (AccountsTransaction) throws -> T
    ) throws -> T {
        let now = clock.now()
        return try store.read { try body(transaction($0, now, scope, isPrivileged, idToken)) }
    }

    private func transaction(
        _ store: StoreTransaction, _ now: Instant, _ scope: UserScope, _ isPrivileged: Bool, _ idToken: DecodedIDToken?
    ) -> AccountsTransaction {
        AccountsTransaction(
            store: store, now: now, scope: scope, isPrivileged: isPrivileged, decodedIDToken: idToken, environment: self)
    }
}
