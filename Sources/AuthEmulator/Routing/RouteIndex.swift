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

    init(_ routes: [Route]) {
        self.routes = routes
        for (position, route) in routes.enumerated() {
            candidates[Key(method: route.method, segmentCount: route.pattern.segmentCount), default: []].append(position)
        }
    }

    /// The first route, in table order, whose method and template fit; HEAD is served by GET routes.
    func match(method: String, path: String) -> (Route, [String: String])? {
        // Split as bytes: splitting a String walks it Character by Character.
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Substring($0) }
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
