#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTML
import JSON

/// One console request: which project and tenant it shows (`?project=…&tenant=…`, the emulator's
/// project by default), how to link back to it, and how to call the domain's operations as the
/// project owner would.
struct ConsoleContext {
    static let base = "/emulator/ui"

    /// The console's address as a person types it, for pointers elsewhere (`GET /`, errors).
    static func url(origin: String) -> String { origin + base }

    let request: OperationRequest
    let scope: UserScope

    init(_ request: OperationRequest) {
        self.request = request
        func value(_ name: String) -> String? {
            guard let text = request.queryValue(name)?.trimmingWhitespace(), !text.isEmpty else { return nil }
            return text
        }
        scope = UserScope(projectId: value("project") ?? request.environment.defaultProjectId, tenantId: value("tenant"))
    }

    var environment: AuthEnvironment { request.environment }
    var isDefaultProject: Bool { scope.projectId == environment.defaultProjectId }

    func query(_ name: String) -> String? {
        guard let text = request.queryValue(name), !text.isEmpty else { return nil }
        return text
    }

    /// A console URL in this project and tenant, with `extra` query parameters.
    func link(_ path: String, _ extra: [(String, String)] = []) -> String {
        link(path, extra, tenant: scope.tenantId)
    }

    /// A console URL in this project and the tenant `tenantId` (none: the project itself).
    func link(_ path: String, _ extra: [(String, String)] = [], tenant tenantId: String?) -> String {
        var pairs: [(String, String)] = []
        if !isDefaultProject { pairs.append(("project", scope.projectId)) }
        if let tenant = tenantId { pairs.append(("tenant", tenant)) }
        pairs += extra
        return Self.base + path + (pairs.isEmpty ? "" : "?" + URIComponent.query(pairs))
    }

    // MARK: Forms

    /// A post form with its CSRF token.
    func form(_ path: String, _ extra: [(String, String)] = [], class className: String? = nil, _ content: HTML) -> HTML {
        let classAttribute: HTML = className.map { " class=\"\($0)\"" } ?? ""
        return """
            <form method="post" action="\(link(path, extra))"\(classAttribute)>\
            <input type="hidden" name="\(ConsoleSecurity.fieldName)" value="\(ConsoleSecurity.token())">\(content)</form>
            """
    }

    /// A one-button form: `action` posted to `path`.
    func button(_ path: String, _ extra: [(String, String)] = [], action: String, label: String, danger: Bool = false) -> HTML {
        let style: HTML = danger ? " class=\"danger\"" : ""
        return form(path, extra, class: "inline", """
            <input type="hidden" name="action" value="\(action)"><button type="submit"\(style)>\(label)</button>
            """)
    }

    // MARK: Posts

    /// Where a post sends the browser back to.
    struct Destination {
        var path: String
        var query: [(String, String)] = []
    }

    /// A form post: checked for origin and token, then `body` runs and the browser is sent to the
    /// destination it answers with a flash message in the query (POST, then 303, then GET). A
    /// refusal, in words: where `again` draws the page anew for the posted form, with the values
    /// as typed and the problem beside its field (400); otherwise (a one-button form) back to
    /// `back` with it.
    static func post(
        _ request: OperationRequest, back: Destination, again: ((ConsoleContext, ConsoleForm) throws -> OperationResult?)? = nil,
        _ body: (ConsoleContext, RequestBody) throws -> (flash: String, to: Destination?)
    ) throws -> OperationResult {
        try ConsoleSecurity.checkSameOrigin(request)
        try ConsoleSecurity.checkToken(request)
        let context = ConsoleContext(request)
        let problem: ConsoleProblem
        do {
            let (flash, destination) = try body(context, request.body)
            let target = destination ?? back
            return .redirect(location: context.link(target.path, target.query + [("flash", flash)]))
        } catch let error as AuthError {
            problem = ConsoleProblem(error)
        } catch let error as ConsoleProblem {
            problem = error
        }
        let form = ConsoleForm(try request.body.string("action") ?? "", posted: request.body, problem: problem)
        guard let page = try again?(context, form) else {
            return .redirect(location: context.link(back.path, back.query + [("error", problem.flashText)]))
        }
        guard case .html(let markup, _) = page else { return page }
        return .html(markup, status: 400)
    }

    // MARK: The domain, as the project owner calls it

    /// An operation request on this console's scope (or `scope`) with `body` and `query`,
    /// privileged (`Bearer owner`) unless the call must go the way an app's does (signInWithIdp).
    func operationRequest(
        _ body: JSONObject, privileged: Bool = true, query: [(name: String, value: String)] = [], scope: UserScope? = nil
    ) -> OperationRequest {
        OperationRequest(
            scope: scope ?? self.scope, isPrivileged: privileged, body: RequestBody(body), decodedIDToken: nil, query: query,
            host: request.host, environment: environment)
    }

    /// The project itself, whatever tenant the console shows: where project settings and the
    /// tenant list live.
    var projectScope: UserScope { UserScope(projectId: scope.projectId, tenantId: nil) }
}
