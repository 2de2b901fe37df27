import JSON
import SQLiteStore

/// What a refresh token stands for. The token string is the official emulator's readable format
/// (`RefreshTokenFormat`) with a random part, but the meaning lives in the store and is never read
/// from the string, so tokens survive restarts with `--data` and can be revoked.
struct RefreshTokenRecord: Sendable {
    var token: String
    var scope: UserScope
    var localId: String
    var signInProvider: String
    /// Custom-token `claims`, carried into every refreshed ID token.
    var extraClaims: JSONObject?
    var secondFactor: JSONObject?
    var issuedAt: Instant
}

struct RefreshTokenRepository {
    let connection: SQLiteConnection

    func insert(_ record: RefreshTokenRecord) throws {
        try connection.execute(
            """
            INSERT INTO refresh_tokens (token, project_id, tenant_id, local_id, sign_in_provider, extra_claims,
                second_factor, issued_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.token), .text(record.scope.projectId), .text(record.scope.tenantKey), .text(record.localId),
                .text(record.signInProvider), SQLiteValue(record.extraClaims?.compactString),
                SQLiteValue(record.secondFactor?.compactString), .integer(record.issuedAt.millisecondsSinceEpoch),
            ])
    }

    func find(_ token: String) throws -> RefreshTokenRecord? {
        guard
            let row = try connection.queryFirst(
                """
                SELECT project_id, tenant_id, local_id, sign_in_provider, extra_claims, second_factor, issued_at
                FROM refresh_tokens WHERE token = ?
                """, [.text(token)])
        else { return nil }
        let tenant = row["tenant_id"].text ?? ""
        return RefreshTokenRecord(
            token: token,
            scope: UserScope(projectId: row["project_id"].text ?? "", tenantId: tenant.isEmpty ? nil : tenant),
            localId: row["local_id"].text ?? "", signInProvider: row["sign_in_provider"].text ?? "",
            extraClaims: row["extra_claims"].text.flatMap { try? JSONValue(parsing: $0).objectValue },
            secondFactor: row["second_factor"].text.flatMap { try? JSONValue(parsing: $0).objectValue },
            issuedAt: Instant(millisecondsSinceEpoch: row["issued_at"].integer ?? 0))
    }
}
