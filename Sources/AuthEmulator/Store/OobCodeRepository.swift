import SQLiteStore

/// An email action code as stored: what it does, for whom, and until when.
struct OobCodeRecord: Sendable, Equatable {
    let code: String
    let scope: UserScope
    let requestType: OobRequestType
    let email: String?
    let newEmail: String?
    let oobLink: String
    let continueUrl: String?
    let createdAt: Instant
    let expiresAt: Instant
}

struct OobCodeRepository {
    let connection: SQLiteConnection

    func insert(_ record: OobCodeRecord) throws {
        try connection.execute(
            """
            INSERT INTO oob_codes (code, project_id, tenant_id, request_type, email, new_email, oob_link, continue_url,
                created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.code), .text(record.scope.projectId), .text(record.scope.tenantKey),
                .text(record.requestType.rawValue), SQLiteValue(record.email), SQLiteValue(record.newEmail),
                .text(record.oobLink), SQLiteValue(record.continueUrl), .integer(record.createdAt.millisecondsSinceEpoch),
                .integer(record.expiresAt.millisecondsSinceEpoch),
            ])
    }

    /// The code in this scope (a code of another project or tenant does not exist here).
    func code(_ code: String, in scope: UserScope) throws -> OobCodeRecord? {
        // One row at most (the code is the key): no ORDER BY, and the SQL is built once.
        try connection.queryFirst(Self.selectByCode, [.text(code), .text(scope.projectId), .text(scope.tenantKey)]) {
            Self.record($0, in: scope)
        }
    }

    /// Codes not used yet, oldest first: the official `oobCodes` list.
    func codes(in scope: UserScope) throws -> [OobCodeRecord] {
        try connection.query(
            "SELECT \(Self.columns) FROM oob_codes WHERE project_id = ?1 AND tenant_id = ?2 ORDER BY created_at, rowid",
            [.text(scope.projectId), .text(scope.tenantKey)]
        ) { Self.record($0, in: scope) }
    }

    func delete(_ code: String) throws {
        try connection.execute("DELETE FROM oob_codes WHERE code = ?", [.text(code)])
    }

    /// A reset's: every code of the target, used or not.
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "oob_codes", of: target)
    }

    private static let columns = "code, request_type, email, new_email, oob_link, continue_url, created_at, expires_at"
    private static let selectByCode = "SELECT \(columns) FROM oob_codes WHERE code = ?1 AND project_id = ?2 AND tenant_id = ?3"

    /// The row read in place (`columns`' order), not as an array of every column's value.
    private static func record(_ row: SQLiteRowReader, in scope: UserScope) -> OobCodeRecord {
        OobCodeRecord(
            code: row.text(0) ?? "", scope: scope, requestType: OobRequestType(rawValue: row.text(1) ?? "") ?? .emailSignIn,
            email: row.text(2), newEmail: row.text(3), oobLink: row.text(4) ?? "", continueUrl: row.text(5),
            createdAt: Instant(millisecondsSinceEpoch: row.integer(6) ?? 0),
            expiresAt: Instant(millisecondsSinceEpoch: row.integer(7) ?? 0))
    }
}
