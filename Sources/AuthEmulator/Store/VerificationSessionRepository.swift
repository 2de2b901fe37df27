import SQLiteStore

/// What an SMS code or a TOTP enrollment session is for.
enum VerificationPurpose: String, Sendable {
    case phoneSignIn = "PHONE_SIGN_IN"
    case mfaEnrollment = "MFA_ENROLLMENT"
    case mfaSignIn = "MFA_SIGN_IN"
    case totpEnrollment = "TOTP_ENROLLMENT"
}

/// A `sessionInfo` the emulator handed out: the code it sent (or, for TOTP, the secret it shared).
struct VerificationSession: Sendable, Equatable {
    let sessionInfo: String
    let scope: UserScope
    let purpose: VerificationPurpose
    var phoneNumber: String?
    var code: String?
    var totpSecret: String?
    /// The user an MFA session belongs to.
    var localId: String?
    let createdAt: Instant
    let expiresAt: Instant
}

struct VerificationSessionRepository {
    let connection: SQLiteConnection

    func insert(_ session: VerificationSession) throws {
        try connection.execute(
            """
            INSERT INTO verification_sessions (session_info, project_id, tenant_id, purpose, phone_number, code,
                totp_secret, local_id, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.sessionInfo), .text(session.scope.projectId), .text(session.scope.tenantKey),
                .text(session.purpose.rawValue), SQLiteValue(session.phoneNumber), SQLiteValue(session.code),
                SQLiteValue(session.totpSecret), SQLiteValue(session.localId),
                .integer(session.createdAt.millisecondsSinceEpoch), .integer(session.expiresAt.millisecondsSinceEpoch),
            ])
    }

    func session(_ sessionInfo: String, in scope: UserScope) throws -> VerificationSession? {
        try sessions(where: "session_info = ?", [.text(sessionInfo)], in: scope).first
    }

    /// SMS sessions not used yet, oldest first: the official `verificationCodes` list.
    func smsSessions(in scope: UserScope) throws -> [VerificationSession] {
        try sessions(where: "code IS NOT NULL", [], in: scope)
    }

    func delete(_ sessionInfo: String) throws {
        try connection.execute("DELETE FROM verification_sessions WHERE session_info = ?", [.text(sessionInfo)])
    }

    /// A reset's: the target's SMS codes, TOTP enrollments in progress and phone proofs.
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "verification_sessions", of: target)
        try connection.deleteRows(from: "temporary_proofs", of: target)
    }

    private func sessions(where clause: String, _ arguments: [SQLiteValue], in scope: UserScope) throws -> [VerificationSession] {
        try connection.query(
            """
            SELECT session_info, purpose, phone_number, code, totp_secret, local_id, created_at, expires_at
            FROM verification_sessions WHERE project_id = ?1 AND tenant_id = ?2 AND \(clause) ORDER BY created_at, rowid
            """, [.text(scope.projectId), .text(scope.tenantKey)] + arguments
        ).map { row in
            VerificationSession(
                sessionInfo: row[0].text ?? "", scope: scope,
                purpose: VerificationPurpose(rawValue: row[1].text ?? "") ?? .phoneSignIn, phoneNumber: row[2].text,
                code: row[3].text, totpSecret: row[4].text, localId: row[5].text,
                createdAt: Instant(millisecondsSinceEpoch: row[6].integer ?? 0),
                expiresAt: Instant(millisecondsSinceEpoch: row[7].integer ?? 0))
        }
    }

    // MARK: Temporary proofs

    func insertTemporaryProof(_ proof: String, phoneNumber: String, scope: UserScope, expiresAt: Instant) throws {
        try connection.execute(
            "INSERT INTO temporary_proofs (proof, project_id, tenant_id, phone_number, expires_at) VALUES (?, ?, ?, ?, ?)",
            [.text(proof), .text(scope.projectId), .text(scope.tenantKey), .text(phoneNumber), .integer(expiresAt.millisecondsSinceEpoch)])
    }

    /// The phone number the proof stands for, if it is this scope's and still valid.
    func temporaryProof(_ proof: String, in scope: UserScope, now: Instant) throws -> String? {
        try connection.queryFirst(
            "SELECT phone_number FROM temporary_proofs WHERE proof = ? AND project_id = ? AND tenant_id = ? AND expires_at >= ?",
            [.text(proof), .text(scope.projectId), .text(scope.tenantKey), .integer(now.millisecondsSinceEpoch)])?[0].text
    }
}
