/// A route's path template: `identitytoolkit.googleapis.com/v1/projects/{projectId}:createSessionCookie`.
/// A `{name}` matches any run of characters without `/` (also an empty one, which the import path
/// `tenants//accounts:batchCreate` relies on) and may be followed by a literal `:suffix`.
struct PathPattern: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(name: String, suffix: String)
    }

    let template: String
    private let segments: [Segment]

    init(_ template: String) {
        self.template = template
        segments = template.split(separator: "/", omittingEmptySubsequences: false).map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            let name = String(part[part.index(after: part.startIndex)..<close])
            return .parameter(name: name, suffix: String(part[part.index(after: close)...]))
        }
    }

    /// The template itself when it has no `{name}` part: only that exact path fits.
    var literalPath: String? {
        segments.allSatisfy { if case .literal = $0 { true } else { false } } ? template : nil
    }

    /// The number of `/`-separated parts, which a path must have to fit.
    var segmentCount: Int { segments.count }

    /// The `{name}` parts, in order.
    var parameterNames: [String] {
        segments.compactMap { segment in
            guard case .parameter(let name, _) = segment else { return nil }
            return name
        }
    }

    /// The captured parameters when `pathSegments` fits the template.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard actual == literal else { return nil }
            case .parameter(let name, let suffix):
                guard actual.hasSuffix(suffix) else { return nil }
                let value = actual.dropLast(suffix.count)
                guard !value.contains(":") || suffix.isEmpty else { return nil }
                parameters[name] = String(value)
            }
        }
        return parameters
    }
}
