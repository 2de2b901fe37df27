import JOSE
import JSON

/// `projects/{p}[/tenants/{t}]:createSessionCookie` (reference §7.4): the ID token's claims,
/// re-issued as a cookie (unsigned unless `--id-tokens signed`) that lives `validDuration` seconds.
enum SessionCookie {
    static let shortestSeconds: Int64 = 5 * 60
    static let longestSeconds: Int64 = 14 * 24 * 60 * 60

    static func create(_ request: OperationRequest) throws -> JSONObject {
        guard let idToken = try request.body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
        // 0 or absent means the longest, as in the reference.
        let requested = try request.body.int64("validDuration") ?? 0
        let duration = requested == 0 ? longestSeconds : requested
        guard (shortestSeconds...longestSeconds).contains(duration) else { throw AuthError.invalid("INVALID_DURATION") }
        let claims = try request.read { transaction in
            var claims = try transaction.authenticate(idToken: idToken).payload
            let issuedAt = transaction.now.secondsSinceEpoch
            claims["iat"] = .int(issuedAt)
            claims["exp"] = .int(issuedAt + duration)
            let audience = claims["aud"].map { $0.stringValue ?? $0.compactString } ?? transaction.scope.projectId
            claims["iss"] = .string("https://session.firebase.google.com/\(audience)")
            return claims
        }
        // Signed outside the transaction: in memory, a read holds the writer lock.
        return ["sessionCookie": .string(try request.environment.idTokenSigner.encode(claims))]
    }
}
