import Foundation

/// What the provider's sign-in page handed an iOS app: the custom-scheme URL it redirected to, and
/// the credential the Apple SDK makes of it for `signInWithIdp` (`AuthClient.signIn(with:)`).
public struct PageSignIn: Sendable {
    public let providerId: String
    /// `app-<app id>://firebaseauth/link?deep_link_id=…`: what the app's URL handler receives.
    public let callbackURL: String
    /// The `link` inside `deep_link_id`: the credential's `requestUri`.
    public let requestUri: String
    /// The raw session id (10 letters) whose SHA-256 the page was opened with.
    public let sessionId: String
    public let eventId: String
}

extension FakeProviders {
    /// Signs in on the headful page `/emulator/auth/handler` the way the Apple SDK's
    /// `OAuthProvider` flow does it in `SFSafariViewController` with no script: opens the page with
    /// the SDK's query, fills in the new-account form, posts it, and reads the redirect to the app
    /// as `AuthWebUtils` does (outer `deep_link_id`, inner `link`, the same `eventId`).
    public func signInThroughPage(
        _ provider: IdentityProvider, email: String, displayName: String? = nil, screenName: String? = nil,
        photoURL: String? = nil, emailVerified: Bool = true, bundleId: String = "com.example.app",
        appId: String = "1:1234567890:ios:abcdef123456", tenantId: String? = nil
    ) async throws -> PageSignIn {
        let sessionId = Self.letters(10)
        let eventId = Self.letters(10)
        var query: [(String, String?)] = [
            ("apiKey", "fake-api-key"), ("authType", "signInWithRedirect"), ("ibi", bundleId),
            ("sessionId", Digest.sha256Hex(sessionId)), ("v", "FirebaseAuth.iOS/12.0.0 AuthEmulatorTesting"),
            ("eventId", eventId), ("providerId", provider.rawValue), ("appId", appId), ("tid", tenantId), ("scopes", ""),
        ]
        let page = try await emulator.http.send("GET", "/emulator/auth/handler", query: query)
        guard page.status == 200, let action = Self.formAction(in: page.text) else {
            throw EmulatorKitError(.unexpectedAnswer, "the sign-in page answered \(page.status) with no new-account form: \(page.text.prefix(300))")
        }
        var form = [("email", email)]
        for (name, value) in [("name", displayName), ("screenName", screenName), ("picture", photoURL)] {
            if let value { form.append((name, value)) }
        }
        if emailVerified { form.append(("emailVerified", "on")) }
        // The form posts back to the page's own address (the query above, as the page wrote it).
        let (path, formQuery) = Self.split(action)
        query = formQuery
        let posted = try await emulator.http.send("POST", path, query: query, form: form)
        guard posted.status == 303, let location = posted.header("Location") else {
            let refusal = posted.status == 200 ? Self.visibleError(in: posted.text) : posted.text.prefix(300).description
            throw EmulatorKitError(.unexpectedAnswer, "posting the sign-in form answered \(posted.status), not a redirect to the app: \(refusal)")
        }
        let scheme = "app-" + appId.replacingOccurrences(of: ":", with: "-")
        guard let outer = URLComponents(string: location), outer.scheme == scheme, outer.host == "firebaseauth", outer.path == "/link",
              let deepLink = Self.sdkQuery(outer.percentEncodedQuery ?? "")["deep_link_id"],
              let inner = URLComponents(string: deepLink) else {
            throw EmulatorKitError(.unexpectedAnswer, "the page redirected to \(location), not a URL the app (\(scheme)://firebaseauth/link) takes")
        }
        let items = Self.sdkQuery(inner.percentEncodedQuery ?? "")
        guard items["authType"] == "signInWithRedirect", items["eventId"] == eventId, let link = items["link"] else {
            throw EmulatorKitError(.unexpectedAnswer, "the redirect's deep link lacks authType, eventId \(eventId) or link: \(deepLink)")
        }
        return PageSignIn(providerId: provider.rawValue, callbackURL: location, requestUri: link, sessionId: sessionId, eventId: eventId)
    }

    /// `AuthWebUtils.dictionary(withHttpArgumentsString:)`: split on `&` and the first `=`, `+` is a
    /// space, percent-decode; the first of a name wins.
    static func sdkQuery(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for piece in query.split(separator: "&") {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(pair[0]), items[name] == nil else { continue }
            items[name] = pair.count > 1 ? decode(pair[1]) : ""
        }
        return items
    }

    private static func formAction(in html: String) -> String? {
        guard let form = html.range(of: "<form id=\"main-form\""),
              let start = html.range(of: "action=\"", range: form.upperBound..<html.endIndex),
              let end = html.range(of: "\"", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A path and its query items, already percent-decoded (the transport encodes them again).
    private static func split(_ action: String) -> (String, [(String, String?)]) {
        let components = URLComponents(string: action)
        let items = components?.queryItems?.map { ($0.name, Optional($0.value ?? "")) } ?? []
        return (components?.path ?? action, items)
    }

    private static func visibleError(in html: String) -> String {
        let text = html.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return String(text.prefix(300))
    }

    static func letters(_ count: Int) -> String {
        String((0..<count).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".randomElement()! })
    }
}
