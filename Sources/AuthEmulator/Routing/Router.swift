#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTTPServer
import JSON

/// The HTTP face of the emulator: CORS, legacy paths, route lookup, credentials, project and tenant
/// resolution, then one operation; every failure becomes a Google-shaped error. Knows nothing of
/// what operations do.
public struct Router: HTTPHandler {
    let environment: AuthEnvironment
    private let routes: RouteIndex

    init(environment: AuthEnvironment, routes: [Route]) {
        self.environment = environment
        self.routes = RouteIndex(routes)
    }

    public func reply(to request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        guard request.method != "OPTIONS" else {
            return .now(finish(CORS.preflightResponse(to: request), refusal: nil, request, started))
        }
        switch dispatch(request) {
        case .answered(let response, let refusal):
            return .now(finish(response, refusal: refusal, request, started))
        case .deferred(let begin, let errorStyle):
            return .later { completion in
                begin(DeferredAnswer { result in
                    completion.complete(finish(
                        ResponseRenderer.render(result, errorsAs: errorStyle), refusal: result.refusalMessage, request, started))
                })
            }
        }
    }

    /// The same answer without a suspendable connection: a deferred one is waited for here.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch reply(to: request) {
        case .now(let response): return response
        case .later(_):
            return ResponseRenderer.render(
                AuthError.notImplemented("This route answers later and needs a server that can suspend a request."),
                as: .google)
        }
    }

    public func respondToOversizedBody(limit: Int) -> HTTPResponse {
        let error = AuthError.payloadTooLarge(limit: limit)
        // The server answers this before the router sees the request, so it has its own line.
        environment.logger.info("request refused before routing: \(error.httpStatus) \(error.message)")
        return ResponseRenderer.render(error, as: .google)
    }

    /// The HTTP layer's own refusals (limits, malformed framing), in the same Google error shape.
    public func respondToRefusal(_ refusal: HTTPRefusal) -> HTTPResponse {
        if case .bodyTooLarge(let limit) = refusal.reason { return respondToOversizedBody(limit: limit) }
        return ResponseRenderer.render(AuthError.refused(refusal), as: .google)
    }

    public func respondToShutdown() -> HTTPResponse {
        ResponseRenderer.render(
            AuthError(httpStatus: 503, message: "UNAVAILABLE : The emulator is shutting down.", reason: "backendError", status: "UNAVAILABLE"),
            as: .google)
    }

    /// CORS and the request's log line, for every answer, now or later. A 4xx says why on the same
    /// line (the Apple SDK turns most refusals into generic codes, so the log is where a developer
    /// reads the reason), shortened so no token, code or nonce appears whole.
    private func finish(_ response: HTTPResponse, refusal: String?, _ request: HTTPRequest, _ started: ContinuousClock.Instant) -> HTTPResponse {
        var response = response
        CORS.decorate(&response, for: request)
        let elapsed = started.duration(to: .now).components
        let tenths = elapsed.seconds * 10_000 + elapsed.attoseconds / 100_000_000_000_000
        let logger = environment.logger
        guard logger.minimumLevel <= .info else { return response }
        let status = response.status
        let reason = (400..<500).contains(status) ? refusal.map(LogRedaction.shorten) : nil
        let line = "\(request.method) \(request.path) \(status) \(tenths / 10).\(tenths % 10)ms"
        logger.log(.info, reason.map { "\(line) \($0)" } ?? line) {
            var fields: JSONObject = [
                "method": .string(request.method), "path": .string(request.path), "status": .int(Int64(status)),
                "durationMs": .double(Double(tenths) / 10),
            ]
            if let reason { fields["error"] = .string(reason) }
            return fields
        }
        return response
    }

    private enum Dispatched {
        /// `refusal`: the error message of a refused request, for its log line.
        case answered(HTTPResponse, refusal: String?)
        case deferred(@Sendable (DeferredAnswer) -> Void, ErrorStyle)
    }

    private func dispatch(_ request: HTTPRequest) -> Dispatched {
        var errorStyle = ErrorStyle.google
        do {
            var rewritten = request
            let legacyBody = try rewriteLegacyPath(&rewritten)
            guard let (route, parameters) = match(rewritten) else { return try unmatched(request, rewritten, legacyBody) }
            errorStyle = route.operation.errorStyle
            let result = try run(route, parameters, rewritten, legacyBody: legacyBody)
            if case .deferred(let begin) = result { return .deferred(begin, errorStyle) }
            return .answered(ResponseRenderer.render(result, errorsAs: errorStyle), refusal: result.refusalMessage)
        } catch {
            return .answered(
                ResponseRenderer.render(failure: error, as: errorStyle, request: request, logger: environment.logger),
                refusal: (error as? AuthError)?.message)
        }
    }

    /// No route fits: the console answers a page of its own; anything else a 405 naming the
    /// methods the path takes (with `Allow`), or a 404 with the nearest route.
    private func unmatched(_ request: HTTPRequest, _ rewritten: HTTPRequest, _ legacyBody: RequestBody?) throws -> Dispatched {
        let miss = routes.miss(method: request.method, requestPath: request.path, routedPath: rewritten.path)
        if rewritten.path == "/" + ConsoleRoutes.base || rewritten.path.hasPrefix("/\(ConsoleRoutes.base)/") {
            let page = Route(rewritten.method, String(rewritten.path.dropFirst()), ConsoleRoutes.missingPage(miss))
            return .answered(
                ResponseRenderer.render(try run(page, [:], rewritten, legacyBody: legacyBody), errorsAs: .html),
                refusal: miss.error.message)
        }
        var response = ResponseRenderer.render(miss.error, as: .google)
        if !miss.allowedMethods.isEmpty { response.headers.set("Allow", miss.allowedMethods.joined(separator: ", ")) }
        return .answered(response, refusal: miss.error.message)
    }

    private func run(
        _ route: Route, _ parameters: [String: String], _ request: HTTPRequest, legacyBody: RequestBody?
    ) throws -> OperationResult {
        let operation = route.operation
        var isPrivileged = false
        if operation.access != .open {
            let credentials = try Credentials(
                request: request, logger: environment.logger, defaultProjectId: environment.defaultProjectId)
            isPrivileged = try credentials.authorize(operation.access)
        }
        guard let handler = operation.handler else {
            throw AuthError.notImplemented("\(operation.id) is not implemented in the Auth Emulator.")
        }
        let parsed = try legacyBody ?? parseBody(request, camelCasing: operation.camelCasesBody)
        try operation.fields.refuseUnknown(body: parsed.object, query: request.query)
        let idToken = try parsed.nonEmptyString("idToken").flatMap(environment.decodedIDTokens.decode)
        let scope = try resolveScope(
            parameters: parameters, body: parsed, idToken: idToken, query: request.query,
            access: operation.access, isPrivileged: isPrivileged)
        #if DEBUG
        let reads = UndeclaredReads()
        let body = parsed.checking(FieldCheck(operationId: operation.id, declared: operation.fields.declaredBody, path: "", reads: reads))
        #else
        let body = parsed
        #endif
        let operationRequest = OperationRequest(
            scope: scope, isPrivileged: isPrivileged, body: body, decodedIDToken: idToken, query: request.query,
            apiKey: (request.queryValue("key") ?? request.headers["x-goog-api-key"]).flatMap { $0.isEmpty ? nil : $0 },
            pathParameters: parameters, host: request.headers["host"],
            accept: request.headers["accept"], originHeader: request.headers["origin"],
            fetchSite: request.headers["sec-fetch-site"], environment: environment)
        #if DEBUG
        var checked = operationRequest
        checked.queryCheck = (operation.id, operation.fields.query, reads)
        let result = try handler(checked)
        try Self.refuseUndeclaredReads(reads, logger: environment.logger)
        return result
        #else
        return try handler(operationRequest)
        #endif
    }

    #if DEBUG
    /// A read the operation's declaration lacks is a bug in the declaration (or the code): the
    /// OpenAPI document and our own routes' refusals would be wrong. Debug builds fail the request,
    /// so the test that reached the read fails.
    private static func refuseUndeclaredReads(_ reads: UndeclaredReads, logger: Logger) throws {
        let notes = reads.all
        guard !notes.isEmpty else { return }
        logger.log(.error, "Undeclared reads: \(notes.joined(separator: "; "))")
        throw AuthError.internal("INTERNAL_ERROR : undeclared reads (debug build): \(notes.joined(separator: "; "))")
    }
    #endif

    /// Moves a v3 `relyingparty` request onto its v1 route. The admin bulk calls name their project
    /// in the body; their body is returned, already parsed (GET bodies otherwise go unread).
    private func rewriteLegacyPath(_ request: inout HTTPRequest) throws(AuthError) -> RequestBody? {
        switch LegacyPaths.rewrite(request.path) {
        case nil:
            return nil
        case .path(let path):
            request.path = path
            return nil
        case .notImplemented(let message):
            throw AuthError.notImplemented(message)
        case .batch(let method, let operation):
            let body = try RequestBody(parsing: request.body)
            guard let project = try body.nonEmptyString("targetProjectId") else {
                throw AuthError.invalid("INSUFFICIENT_PERMISSION")
            }
            request.method = method
            request.path = "/identitytoolkit.googleapis.com/v1/projects/\(project)/\(operation)"
            guard method == "GET" else { return body }
            request.query += body.object.members.compactMap { member in
                member.key == "targetProjectId" ? nil : (member.key, member.value.stringValue ?? member.value.compactString)
            }
            return nil
        }
    }

    private func match(_ request: HTTPRequest) -> (Route, [String: String])? {
        routes.match(method: request.method, path: request.path)
    }

    /// JSON bodies, whatever the content type says (`curl -d` labels JSON as a form); a real form
    /// body is read as one (the Secure Token service takes them). GET and DELETE bodies are ignored
    /// (the Node Admin SDK sends one with some DELETEs).
    private func parseBody(_ request: HTTPRequest, camelCasing: Bool) throws(AuthError) -> RequestBody {
        guard request.method != "GET", request.method != "DELETE", request.method != "HEAD" else { return RequestBody() }
        if Self.isForm(contentType: request.headers["content-type"] ?? ""), !Self.looksLikeJSON(request.body) {
            return RequestBody(
                formFields: FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)), camelCasing: camelCasing)
        }
        return try RequestBody(parsing: request.body, camelCasing: camelCasing)
    }

    /// Whether a Content-Type names a form, in any case. ASCII (every real one) is compared as
    /// bytes; `lowercased()` made a string for every POST, and is kept for anything else.
    static func isForm(contentType: String) -> Bool {
        let form = "application/x-www-form-urlencoded"
        // Shorter cannot match: whatever lowercases to one of these ASCII bytes is a byte or more.
        guard contentType.utf8.count >= form.utf8.count else { return false }
        guard contentType.utf8.allSatisfy({ $0 < 0x80 }) else { return contentType.lowercased().hasPrefix(form) }
        return zip(contentType.utf8, form.utf8).allSatisfy { $0 == $1 || ($0 >= 0x41 && $0 <= 0x5A && $0 | 0x20 == $1) }
    }

    /// A body whose first non-blank byte opens an object.
    private static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        body.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) } == UInt8(ascii: "{")
    }

    /// The project and tenant a request works on (reference §1.3).
    private func resolveScope(
        parameters: [String: String], body: RequestBody, idToken: DecodedIDToken?, query: [(name: String, value: String)],
        access: Access, isPrivileged: Bool
    ) throws(AuthError) -> UserScope {
        var projectId = environment.defaultProjectId
        let target = parameters["targetProjectId"] ?? parameters["projectId"]
        let bodyTarget = try body.nonEmptyString("targetProjectId")
        if let requested = target ?? bodyTarget {
            if access == .apiKeyOrOwner, !isPrivileged {
                throw AuthError.invalid(
                    "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            }
            projectId = requested
        }
        if projectId != environment.defaultProjectId {
            environment.logger.warning(
                "Multiple projectIds are not recommended in single project mode. Requested project ID \(projectId), but the emulator is configured for \(environment.defaultProjectId)."
            )
        }

        var tenantId = parameters["tenantId"].flatMap { $0.isEmpty ? nil : $0 }
        // `batchGet` is a GET and names its tenant in the query.
        let requestedTenant = try body.nonEmptyString("tenantId") ?? query.first { $0.name == "tenantId" }?.value
        if let bodyTenant = requestedTenant.flatMap({ $0.isEmpty ? nil : $0 }) {
            if let tenantId, tenantId != bodyTenant { throw AuthError.invalid("TENANT_ID_MISMATCH") }
            tenantId = bodyTenant
        }
        if let tokenTenant = idToken?.tenant {
            if let tenantId, tenantId != tokenTenant { throw AuthError.invalid("TENANT_ID_MISMATCH") }
            tenantId = tokenTenant
        }
        return UserScope(projectId: projectId, tenantId: tenantId)
    }
}

/// `application/x-www-form-urlencoded` (`+` is a space).
enum FormURLEncoding {
    /// As `URLSearchParams.toString()` writes it: `*-._` and alphanumerics stay, spaces become `+`.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        // Bytes, not String appends: every action link is built here (a tenth of a sendOobCode's CPU).
        encoder.query(pairs)
    }

    private static let encoder = PercentEncoder(keepingAlphanumericsAnd: "*-._", spaceAsPlus: true)

    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                let spaced = part.replacingEvery("+", with: " ")
                return PercentDecoding.decode(spaced) ?? spaced
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}
