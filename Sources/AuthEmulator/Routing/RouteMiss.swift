/// Why no route answered a request, in words that say what to do next (issue 28.1): a known path
/// asked with another method answers 405 naming the methods it takes; an unknown path answers
/// Google's 404 with the nearest route, when one is close, and where the list of routes is.
/// Computed only on a miss, so it costs the hot paths nothing.
struct RouteMiss {
    /// The methods the path's routes take, when the path is known.
    let allowedMethods: [String]
    let error: AuthError

    /// `requestPath` is the path as the client sent it (a v3 name before its rewrite); `routedPath`
    /// the one that was looked up.
    init(method: String, requestPath: String, routedPath: String, routes: [Route]) {
        let segments = Self.segments(routedPath)
        var methods: [String] = []
        for route in routes where route.pattern.match(segments) != nil && !methods.contains(route.method) {
            methods.append(route.method)
        }
        allowedMethods = methods
        let asked = "\(method) \(requestPath)"
        if !methods.isEmpty {
            error = AuthError(
                httpStatus: 405,
                message: "METHOD_NOT_ALLOWED : \(asked) is not served; \(requestPath) takes \(methods.joined(separator: ", ")).",
                reason: "methodNotAllowed", status: "METHOD_NOT_ALLOWED")
            return
        }
        let hint = Self.nearest(method: method, requestPath: requestPath, segments: segments, routes: routes)
            .map { "did you mean \($0)?" } ?? "GET /emulator/openapi.json lists every route."
        error = AuthError(
            httpStatus: 404, message: "NOT_FOUND : No route answers \(asked); \(hint)", reason: "notFound", status: "NOT_FOUND")
    }

    private static func segments(_ path: String) -> [Substring] {
        path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    /// The closest route: every path segment equal or a near miss (`NearestName`'s rule), the
    /// fewest edits in all, the request's own method first. Written with the request's values in
    /// the template's `{name}` parts.
    private static func nearest(method: String, requestPath: String, segments: [Substring], routes: [Route]) -> String? {
        if requestPath.hasPrefix(LegacyPaths.prefix) {
            let name = String(requestPath.dropFirst(LegacyPaths.prefix.count))
            return NearestName.among(LegacyPaths.names, to: name).map { "POST \(LegacyPaths.prefix)\($0)" }
        }
        var best: (path: String, method: String, edits: Int)?
        for route in routes where route.pattern.segmentCount == segments.count {
            guard let (path, edits) = fit(route.pattern, segments) else { continue }
            let better = best.map { edits < $0.edits || (edits == $0.edits && route.method == method && $0.method != method) } ?? true
            if better { best = (path, route.method, edits) }
        }
        return best.map { "\($0.method) /\($0.path)" }
    }

    private static func fit(_ pattern: PathPattern, _ segments: [Substring]) -> (path: String, edits: Int)? {
        var parts: [String] = []
        var edits = 0
        for (template, actual) in zip(pattern.template.split(separator: "/", omittingEmptySubsequences: false), segments) {
            if template.hasPrefix("{"), let close = template.firstIndex(of: "}") {
                // A `{name}` fits any value; only a `:suffix` after it is compared.
                let suffix = String(template[template.index(after: close)...])
                guard !suffix.isEmpty else {
                    parts.append(String(actual))
                    continue
                }
                let colon = actual.lastIndex(of: ":")
                let value = colon.map { actual[..<$0] } ?? actual
                let actualSuffix = colon.map { String(actual[$0...]) } ?? ""
                guard let distance = distance(suffix, actualSuffix) else { return nil }
                edits += distance
                parts.append(value + suffix)
            } else {
                guard let distance = distance(String(template), String(actual)) else { return nil }
                edits += distance
                parts.append(String(template))
            }
        }
        return (parts.joined(separator: "/"), edits)
    }

    /// Edits between a template's literal and the request's by `NearestName`'s rule (a case or
    /// separator difference counts one), `nil` when too far to be a typo.
    private static func distance(_ expected: String, _ actual: String) -> Int? {
        if expected == actual { return 0 }
        let (folded, foldedActual) = (NearestName.fold(expected), NearestName.fold(actual))
        if folded == foldedActual { return 1 }
        return NearestName.edits(from: folded, toFolded: foldedActual)
    }
}
