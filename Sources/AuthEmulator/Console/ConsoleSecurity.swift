#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JOSE

/// The console's defences for its form posts (DESIGN §4.1). No cookies: every form carries a
/// token signed with a secret this process drew at start, and every post must come from the
/// console's own origin as the browser reports it (`Sec-Fetch-Site`, `Origin`). The emulator's
/// JSON API reflects any origin on purpose; these forms must not.
enum ConsoleSecurity {
    /// Drawn once per process: a restart invalidates every form still open.
    private static let secret = SecureRandom.bytes(32)
    /// How long a rendered form stays usable, by the wall clock (never the emulator clock, which a
    /// test moves days ahead).
    static let tokenLifetimeSeconds: Int64 = 12 * 3600
    static let fieldName = "csrf"

    /// `<issued second>.<HMAC-SHA-256 of it>`, base64url.
    static func token(now: Int64 = wallClockSeconds()) -> String {
        "\(now).\(signature(of: now))"
    }

    static func isValid(_ token: String?, now: Int64 = wallClockSeconds()) -> Bool {
        guard let token, let dot = token.firstIndex(of: "."), let issued = Int64(token[..<dot]) else { return false }
        guard issued <= now + 60, now - issued <= tokenLifetimeSeconds else { return false }
        let expected = Array(signature(of: issued).utf8)
        let given = Array(token[token.index(after: dot)...].utf8)
        guard expected.count == given.count else { return false }
        // Constant time: every byte is compared whatever the first difference.
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func signature(of issued: Int64) -> String {
        Base64URL.encode(HMAC.authenticationCode(.sha256, key: secret, message: Array("auth-emulator console \(issued)".utf8)))
    }

    static func wallClockSeconds() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// Refuses a post that a browser says came from another site, or whose `Origin` is not the
    /// console's own (`http(s)://<Host>`). A client that sends neither header (curl, a test) is
    /// no browser a foreign page could drive; it still needs a valid token.
    static func checkSameOrigin(_ request: OperationRequest) throws(AuthError) {
        if let site = request.fetchSite?.lowercased(), site != "same-origin", site != "none" {
            throw forbidden("This form post came from another site (Sec-Fetch-Site: \(site)); the console only accepts its own forms.")
        }
        if let origin = request.originHeader {
            let origin = origin.lowercased()
            // Either scheme: a TLS proxy in front of the emulator keeps the browser's Host.
            guard let host = request.host?.lowercased(), origin == "http://\(host)" || origin == "https://\(host)" else {
                throw forbidden("This form post came from \(origin), not from the console at \(request.origin).")
            }
        }
    }

    static func checkToken(_ request: OperationRequest) throws(AuthError) {
        guard isValid(try request.body.string(fieldName)) else {
            throw forbidden("The form's security token is missing, expired or from an earlier run of the emulator. Reload the page and try again.")
        }
    }

    static func forbidden(_ why: String) -> AuthError {
        AuthError(httpStatus: 403, message: "Forbidden: \(why)", reason: "forbidden", status: "PERMISSION_DENIED")
    }
}
