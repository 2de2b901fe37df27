import JOSE
import JSON
import SQLiteStore

/// What a refresh token stands for. The token string is the official emulator's readable format
/// (`RefreshTokenFormat`) with a random part, but the meaning lives in the store and is never read
/// from the string, so tokens survive restarts with `--data` and can be revoked.
///
/// The store keeps the first 16 bytes of the string's SHA-256, not the string (about 300 bytes of
/// base64 JSON, and as much again in its index), as the key of the table's own b-tree (migration
/// 25): a lookup hashes the token presented and searches for all 16 bytes.
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
            INSERT INTO refresh_tokens (token_sha256, project_id, tenant_id, local_id, sign_in_provider,
                extra_claims, second_factor, issued_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .blob(Self.digest(of: record.token)), .text(record.scope.projectId), .text(record.scope.tenantKey), .text(record.localId),
                .text(record.signInProvider), SQLiteValue(record.extraClaims?.compactString),
                SQLiteValue(record.secondFactor?.compactString), .integer(record.issuedAt.millisecondsSinceEpoch),
            ])
    }

    func find(_ token: String) throws -> RefreshTokenRecord? {
        guard
            let row = try connection.queryFirst(
                """
                SELECT project_id, tenant_id, local_id, sign_in_provider, extra_claims, second_factor, issued_at
                FROM refresh_tokens WHERE token_sha256 = ?
                """, [.blob(Self.digest(of: token))])
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

    /// A reset's: the target's tokens, also those of users deleted one by one (which keep theirs).
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "refresh_tokens", of: target)
    }

    /// The stored form of a token string: 128 bits of its SHA-256, as far beyond guessing or
    /// colliding as the whole digest for tokens that carry 256 random bits themselves, at half
    /// the bytes per token (bench/memory: 1.6 MB of 100k users).
    static func digest(of token: String) -> [UInt8] { Array(SHA256.hash(token.utf8).prefix(digestLength)) }
    static let digestLength = 16
}

extension RefreshTokenRepository {
    /// Migration 15: moves the tokens of `refresh_tokens_by_string` (the whole string as the key)
    /// into `refresh_tokens` by digest, in issue order, a page at a time, then drops the old table.
    @Sendable static func digestTokensIssuedBefore15(_ connection: SQLiteConnection) throws {
        var after: Int64 = 0
        while true {
            let rows = try connection.query(
                """
                SELECT rowid, token, project_id, tenant_id, local_id, sign_in_provider, extra_claims, second_factor,
                    issued_at
                FROM refresh_tokens_by_string WHERE rowid > ? ORDER BY rowid LIMIT 1000
                """, [.integer(after)])
            guard let last = rows.last else { break }
            for row in rows {
                try connection.execute(
                    """
                    INSERT INTO refresh_tokens (token_sha256, project_id, tenant_id, local_id, sign_in_provider,
                        extra_claims, second_factor, issued_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.blob(digest(of: row[1].text ?? ""))] + row.values[2...])
            }
            after = last[0].integer ?? Int64.max
        }
        try connection.execute("DROP TABLE refresh_tokens_by_string")
    }
}
