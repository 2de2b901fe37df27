import Foundation

/// Email action links read the way the Apple SDK reads them (`Auth.getQueryItems`): the query
/// decoded once, split on `&` and at each first `=`, each name and value decoded again; later
/// names win. A link that nests the action link (`…/__/auth/links?link=…`) gives up the nested
/// link's items this way, as it does in the SDK.
public enum EmailLink {
    public static func items(of link: String) -> [String: String] {
        guard let components = URLComponents(string: link), let query = components.query else { return [:] }
        var items: [String: String] = [:]
        for piece in query.split(separator: "&") {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(pair[0]).removingPercentEncoding,
                  let value = (pair.count > 1 ? String(pair[1]) : "").removingPercentEncoding else { continue }
            items[name] = value
        }
        return items
    }

    /// `Auth.isSignIn(withEmailLink:)`: an `oobCode` and `mode=signIn`.
    public static func isSignInLink(_ link: String) -> Bool {
        let items = items(of: link)
        return items["mode"] == "signIn" && !(items["oobCode"] ?? "").isEmpty
    }

    /// The code an email link carries.
    public static func oobCode(of link: String) throws -> String {
        guard let code = items(of: link)["oobCode"], !code.isEmpty else {
            throw EmulatorKitError(.invalidArgument, "no oobCode in the link \(link)")
        }
        return code
    }
}
