/// The routes grouped by method and number of path segments, in table order, so a request is
/// matched against the handful that could fit instead of every route (a scan of them all, each
/// copied, was 5% of a lookup's CPU).
struct RouteIndex: Sendable {
    private struct Key: Hashable {
        let method: String
        let segmentCount: Int
    }

    private let routes: [Route]
    private var candidates: [Key: [Int]] = [:]
    /// Routes with no `{name}` part by method and path (with its leading `/`, so the request's
    /// own string is the key, not a new one), where no earlier route also fits that path: the hot
    /// API paths are all of this kind, and then matching is one dictionary lookup. The handful of
    /// methods are scanned, not hashed: a string hash costs more than comparing five short ones.
    private var exactPaths: [(method: String, paths: [String: Int])] = []

    init(_ routes: [Route]) {
        self.routes = routes
        for (position, route) in routes.enumerated() {
            let key = Key(method: route.method, segmentCount: route.pattern.segmentCount)
            if let path = route.pattern.literalPath, exactPath(method: route.method, "/" + path) == nil {
                let segments = Self.segments(path)
                let shadowed = candidates[key, default: []].contains { routes[$0].pattern.match(segments) != nil }
                if !shadowed {
                    if let index = exactPaths.firstIndex(where: { $0.method == route.method }) {
                        exactPaths[index].paths["/" + path] = position
                    } else {
                        exactPaths.append((route.method, ["/" + path: position]))
                    }
                }
            }
            candidates[key, default: []].append(position)
        }
    }

    private static func segments(_ path: Substring.UTF8View) -> [Substring] {
        // Split as bytes: splitting a String walks it Character by Character.
        path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    private static func segments(_ path: String) -> [Substring] { segments(Substring(path).utf8) }

    private func exactPath(method: String, _ path: String) -> Int? {
        for entry in exactPaths where entry.method == method { return entry.paths[path] }
        return nil
    }

    /// What to answer when `match` found nothing (`RouteMiss`).
    func miss(method: String, requestPath: String, routedPath: String) -> RouteMiss {
        RouteMiss(method: method, requestPath: requestPath, routedPath: routedPath, routes: routes)
    }

    /// The first route, in table order, whose method and template fit; HEAD is served by GET routes.
    func match(method: String, path: String) -> (Route, [String: String])? {
        if let position = exactPath(method: method, path) {
            return (routes[position], [:])
        }
        let relativePath = path.utf8.dropFirst()
        let segments = Self.segments(relativePath)
        var positions = candidates[Key(method: method, segmentCount: segments.count)] ?? []
        if method == "HEAD" {
            positions = (positions + (candidates[Key(method: "GET", segmentCount: segments.count)] ?? [])).sorted()
        }
        for position in positions {
            if let parameters = routes[position].pattern.match(segments) { return (routes[position], parameters) }
        }
        return nil
    }
}
