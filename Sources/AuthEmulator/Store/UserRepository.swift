import JSON
import SQLiteStore

/// Reads and writes accounts inside one store transaction. Lives only as long as the
/// transaction's connection.
struct UserRepository {
    let connection: SQLiteConnection

    /// The users table's columns in the order every query here selects them and `save` writes
    /// them, so rows are read by position rather than by name.
    fileprivate enum UserColumn: Int, CaseIterable {
        case localId, email, emailVerified, displayName, photoUrl, phoneNumber, passwordHash, salt
        case passwordUpdatedAt, validSince, createdAt, lastLoginAt, lastRefreshAt, disabled
        case customAttributes, customAuth, emailLinkSignin, initialEmail, mfaInfo, passkeyInfo, passwordHashConfig
        case screenName, fakePassword

        /// The SQL name: `passwordHashConfig` is `password_hash_config`.
        var name: String {
            String(describing: self).reduce(into: "") { name, character in
                if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
            }
        }
    }

    private static let userColumns = UserColumn.allCases.map(\.name).joined(separator: ", ")

    /// The SELECT of `users(where:)`; the frequent ones are made once, not per query.
    private static func selectUsers(where clause: String, orderBy: String? = "local_id") -> String {
        "SELECT \(userColumns) FROM users WHERE project_id = ?1 AND tenant_id = ?2 AND \(clause)"
            + (orderBy.map { " ORDER BY \($0)" } ?? "")
    }
    private static let selectByLocalId = selectUsers(where: "local_id = ?")
    private static let selectByEmail = selectUsers(where: "email = ?", orderBy: "created_at, local_id")
    private static let upsertUser = """
        INSERT INTO users (project_id, tenant_id, \(Self.userColumns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (project_id, tenant_id, local_id) DO UPDATE SET
            email = excluded.email, email_verified = excluded.email_verified,
            display_name = excluded.display_name, photo_url = excluded.photo_url,
            phone_number = excluded.phone_number, password_hash = excluded.password_hash, salt = excluded.salt,
            fake_password = excluded.fake_password,
            password_updated_at = excluded.password_updated_at, valid_since = excluded.valid_since,
            created_at = excluded.created_at, last_login_at = excluded.last_login_at,
            last_refresh_at = excluded.last_refresh_at, disabled = excluded.disabled,
            custom_attributes = excluded.custom_attributes, custom_auth = excluded.custom_auth,
            email_link_signin = excluded.email_link_signin, initial_email = excluded.initial_email,
            mfa_info = excluded.mfa_info, passkey_info = excluded.passkey_info,
            password_hash_config = excluded.password_hash_config, screen_name = excluded.screen_name
        """

    // MARK: Reads

    func user(localId: String, in scope: UserScope) throws -> UserRecord? {
        try users(selecting: Self.selectByLocalId, [.text(localId)], in: scope).first
    }

    /// Users whose top-level email is `email` (already lower-cased), oldest first.
    func users(email: String, in scope: UserScope) throws -> [UserRecord] {
        try users(selecting: Self.selectByEmail, [.text(email)], in: scope)
    }

    /// Users whose email changed away from `initialEmail` (already lower-cased).
    func users(initialEmail: String, in scope: UserScope) throws -> [UserRecord] {
        try users(where: "initial_email = ?", [.text(initialEmail)], in: scope, orderBy: "created_at, local_id")
    }

    /// The user holding the passkey `credentialId`.
    func user(passkeyCredentialId credentialId: String, in scope: UserScope) throws -> UserRecord? {
        let clause = """
            passkey_info IS NOT NULL AND EXISTS (
                SELECT 1 FROM json_each(passkey_info) WHERE json_extract(value, '$.credentialId') = ?)
            """
        return try users(where: clause, [.text(credentialId)], in: scope).first
    }

    func user(phoneNumber: String, in scope: UserScope) throws -> UserRecord? {
        try users(where: "phone_number = ?", [.text(phoneNumber)], in: scope).first
    }

    /// The user a federated identity is linked to.
    func user(providerId: String, rawId: String, in scope: UserScope) throws -> UserRecord? {
        let clause = """
            local_id IN (SELECT local_id FROM provider_links
                         WHERE project_id = ?1 AND tenant_id = ?2 AND provider_id = ? AND raw_id = ?)
            """
        return try users(where: clause, [.text(providerId), .text(rawId)], in: scope).first
    }

    /// Users with a federated link that carries `email`, oldest first.
    func usersWithProviderEmail(_ email: String, in scope: UserScope) throws -> [UserRecord] {
        let clause = """
            local_id IN (SELECT local_id FROM provider_links WHERE project_id = ?1 AND tenant_id = ?2 AND email = ?)
            """
        return try users(where: clause, [.text(email)], in: scope, orderBy: "created_at, local_id")
    }

    /// A page of users ordered by local id, starting after `afterLocalId`.
    func users(in scope: UserScope, afterLocalId: String?, limit: Int?) throws -> [UserRecord] {
        var arguments: [SQLiteValue] = [.text(afterLocalId ?? "")]
        var clause = "local_id > ?"
        if let limit {
            clause += " ORDER BY local_id LIMIT ?"
            arguments.append(.integer(Int64(limit)))
            return try users(where: clause, arguments, in: scope, orderBy: nil)
        }
        return try users(where: clause, arguments, in: scope, orderBy: "local_id")
    }

    /// Where a newest-first page of the console's user list starts: after this user.
    struct NewestFirstCursor: Equatable, Sendable {
        let createdAt: Int64
        let localId: String

        /// `<createdAt ms>.<localId>`, as the console's "next page" link carries it.
        init?(_ text: String) {
            guard let dot = text.firstIndex(of: "."), let createdAt = Int64(text[..<dot]) else { return nil }
            self.createdAt = createdAt
            localId = String(text[text.index(after: dot)...])
        }

        init(after user: UserRecord) {
            createdAt = user.createdAt.millisecondsSinceEpoch
            localId = user.localId
        }

        var text: String { "\(createdAt).\(localId)" }
    }

    /// The console's search: a page of users, newest first (after `cursor`), whose uid, email,
    /// phone, display name, a linked provider's id, uid or email contains `text` (case-insensitive
    /// for ASCII), or who sign in with `text` as a provider (`password`, `phone`); every user when
    /// `text` is empty.
    func search(_ text: String, in scope: UserScope, after cursor: NewestFirstCursor?, limit: Int) throws -> [UserRecord] {
        var arguments: [SQLiteValue] = [.integer(cursor?.createdAt ?? Int64.max), .text(cursor?.localId ?? "")]
        // Keyset paging on (created_at, local_id) descending; the first page starts before the end of time.
        var clause = "(created_at < ?3 OR (created_at = ?3 AND local_id < ?4))"
        if !text.isEmpty {
            let escaped = text.replacingEvery("\\", with: "\\\\").replacingEvery("%", with: "\\%")
                .replacingEvery("_", with: "\\_")
            arguments.append(.text("%\(escaped)%"))
            let lowered = text.lowercased()
            let derived = lowered == "password" ? " OR password_hash IS NOT NULL OR fake_password IS NOT NULL OR email_link_signin = 1"
                : lowered == "phone" ? " OR phone_number IS NOT NULL" : ""
            clause += """
                 AND (local_id LIKE ?5 ESCAPE '\\' OR email LIKE ?5 ESCAPE '\\' OR phone_number LIKE ?5 ESCAPE '\\'
                    OR display_name LIKE ?5 ESCAPE '\\'\(derived) OR local_id IN (
                        SELECT local_id FROM provider_links WHERE project_id = ?1 AND tenant_id = ?2
                        AND (provider_id LIKE ?5 ESCAPE '\\' OR raw_id LIKE ?5 ESCAPE '\\' OR email LIKE ?5 ESCAPE '\\')))
                """
        }
        arguments.append(.integer(Int64(limit)))
        clause += " ORDER BY created_at DESC, local_id DESC LIMIT ?\(arguments.count + 2)"
        return try users(where: clause, arguments, in: scope, orderBy: nil)
    }

    func count(in scope: UserScope) throws -> Int {
        let row = try connection.queryFirst(
            "SELECT count(*) FROM users WHERE project_id = ? AND tenant_id = ?", [.text(scope.projectId), .text(scope.tenantKey)])
        return Int(row?[0].integer ?? 0)
    }

    /// Users matching `clause`; the clause's own `?` arguments follow `?1` (project) and `?2` (tenant).
    private func users(
        where clause: String, _ arguments: [SQLiteValue], in scope: UserScope, orderBy: String? = "local_id"
    ) throws -> [UserRecord] {
        try users(selecting: Self.selectUsers(where: clause, orderBy: orderBy), arguments, in: scope)
    }

    private func users(selecting sql: String, _ arguments: [SQLiteValue], in scope: UserScope) throws -> [UserRecord] {
        let rows = try connection.query(sql, [.text(scope.projectId), .text(scope.tenantKey)] + arguments)
        return try rows.map { try decodeUser($0, scope: scope) }
    }

    private func decodeUser(_ row: SQLiteRow, scope: UserScope) throws -> UserRecord {
        let localId = row[.localId].text ?? ""
        var user = UserRecord(
            localId: localId, scope: scope, createdAt: Instant(millisecondsSinceEpoch: row[.createdAt].integer ?? 0))
        user.email = row[.email].text
        user.emailVerified = row[.emailVerified].bool
        user.displayName = row[.displayName].text
        user.photoUrl = row[.photoUrl].text
        user.screenName = row[.screenName].text
        user.phoneNumber = row[.phoneNumber].text
        user.salt = row[.salt].text
        user.passwordHash = row[.passwordHash].text ?? row[.fakePassword].text.map { Self.fakeHashPrefix(salt: user.salt ?? "") + $0 }
        user.passwordUpdatedAt = row[.passwordUpdatedAt].integer.map(Instant.init(millisecondsSinceEpoch:))
        user.validSinceSeconds = row[.validSince].integer
        user.lastLoginAt = row[.lastLoginAt].integer.map(Instant.init(millisecondsSinceEpoch:))
        user.lastRefreshAt = row[.lastRefreshAt].integer.map(Instant.init(millisecondsSinceEpoch:))
        user.disabled = row[.disabled].bool ?? false
        user.customAttributes = row[.customAttributes].text
        user.customAuth = row[.customAuth].bool ?? false
        user.emailLinkSignin = row[.emailLinkSignin].bool ?? false
        user.initialEmail = row[.initialEmail].text
        user.mfaEnrollments = Self.decodeList(row[.mfaInfo].text, MFAEnrollment.init(stored:))
        user.listsWithdrawnFactors = user.mfaEnrollments.isEmpty && row[.mfaInfo].text != nil
        user.passkeys = Self.decodeList(row[.passkeyInfo].text, Passkey.init(stored:))
        user.importedPasswordHash = row[.passwordHashConfig].text
            .flatMap { try? JSONValue(parsing: $0).objectValue }.flatMap(ImportedPasswordHash.init(stored:))
        user.providers = try providers(of: localId, in: scope)
        user.storedProviders = user.providers
        return user
    }

    /// A JSON array column, one element per entry (nil and malformed text read as empty).
    /// `fakeHash:salt=<salt>:password=`: what the emulator's own hash of a password holds before it.
    private static func fakeHashPrefix(salt: String) -> String { FakePasswordHash.hash("", salt: salt) }

    /// The columns for `user.passwordHash`: the emulator's own hash of the user's salt is kept as
    /// the password alone (`fake_password`), since the rest repeats the salt; any other hash as is.
    /// Compared as bytes, so reading it back rebuilds exactly the same string.
    private static func storedPassword(_ user: UserRecord) -> (hash: SQLiteValue, fakePassword: SQLiteValue) {
        guard let hash = user.passwordHash, let salt = user.salt else { return (SQLiteValue(user.passwordHash), .null) }
        let prefix = fakeHashPrefix(salt: salt).utf8
        guard hash.utf8.starts(with: prefix) else { return (.text(hash), .null) }
        return (.null, .text(String(decoding: hash.utf8.dropFirst(prefix.count), as: UTF8.self)))
    }

    private static func decodeList<Element>(_ text: String?, _ decode: (JSONObject) -> Element?) -> [Element] {
        guard let text, let elements = try? JSONValue(parsing: text).arrayValue else { return [] }
        return elements.compactMap { $0.objectValue.flatMap(decode) }
    }

    private static func encodeList(_ objects: [JSONObject]) -> SQLiteValue {
        objects.isEmpty ? .null : .text(JSONValue.array(objects.map { .object($0) }).compactString)
    }

    private func providers(of localId: String, in scope: UserScope) throws -> [ProviderUserInfo] {
        let rows = try connection.query(
            """
            SELECT provider_id, raw_id, federated_id, email, display_name, photo_url, screen_name, phone_number
            FROM provider_links WHERE project_id = ? AND tenant_id = ? AND local_id = ? ORDER BY position
            """, [.text(scope.projectId), .text(scope.tenantKey), .text(localId)])
        return rows.map(Self.decodeLink)
    }

    private static func decodeLink(_ row: SQLiteRow) -> ProviderUserInfo {
        ProviderUserInfo(
            providerId: row[0].text ?? "", rawId: row[1].text ?? "", federatedId: row[2].text, email: row[3].text,
            displayName: row[4].text, photoUrl: row[5].text, screenName: row[6].text, phoneNumber: row[7].text)
    }

    func localIdExists(_ localId: String, in scope: UserScope) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM users WHERE project_id = ? AND tenant_id = ? AND local_id = ?",
            [.text(scope.projectId), .text(scope.tenantKey), .text(localId)]) != nil
    }

    // MARK: Writes

    /// Inserts or updates `user`, and replaces its provider links when they changed. A link that
    /// another user of the scope already holds fails with `FEDERATED_USER_ID_ALREADY_LINKED`.
    func save(_ user: inout UserRecord) throws {
        let scope = user.scope
        let password = Self.storedPassword(user)
        try connection.execute(
            Self.upsertUser,
            [
                .text(scope.projectId), .text(scope.tenantKey), .text(user.localId), SQLiteValue(user.email),
                SQLiteValue(user.emailVerified), SQLiteValue(user.displayName), SQLiteValue(user.photoUrl),
                SQLiteValue(user.phoneNumber), password.hash, SQLiteValue(user.salt),
                SQLiteValue(user.passwordUpdatedAt?.millisecondsSinceEpoch), SQLiteValue(user.validSinceSeconds),
                .integer(user.createdAt.millisecondsSinceEpoch), SQLiteValue(user.lastLoginAt?.millisecondsSinceEpoch),
                SQLiteValue(user.lastRefreshAt?.millisecondsSinceEpoch), SQLiteValue(user.disabled),
                SQLiteValue(user.customAttributes), SQLiteValue(user.customAuth), SQLiteValue(user.emailLinkSignin),
                SQLiteValue(user.initialEmail), user.listsWithdrawnFactors ? .text("[]") : Self.encodeList(user.mfaEnrollments.map(\.storedJSON)),
                Self.encodeList(user.passkeys.map(\.json)),
                SQLiteValue(user.importedPasswordHash.map { JSONValue.object($0.json).compactString }),
                SQLiteValue(user.screenName), password.fakePassword,
            ])
        guard user.providers != user.storedProviders else { return }
        try replaceProviders(of: user)
        user.storedProviders = user.providers
    }

    private func replaceProviders(of user: UserRecord) throws {
        let scope = user.scope
        // A user never stored has no links to remove.
        if user.storedProviders != nil {
            try connection.execute(
                "DELETE FROM provider_links WHERE project_id = ? AND tenant_id = ? AND local_id = ?",
                [.text(scope.projectId), .text(scope.tenantKey), .text(user.localId)])
        }
        for (position, link) in user.providers.enumerated() {
            do {
                try insertLink(link, position: position, of: user)
            } catch let error as SQLiteError where error.isConstraintViolation {
                throw AuthError.invalid("FEDERATED_USER_ID_ALREADY_LINKED")
            }
        }
    }

    private func insertLink(_ link: ProviderUserInfo, position: Int, of user: UserRecord) throws {
        let scope = user.scope
        try connection.execute(
                """
                INSERT INTO provider_links (project_id, tenant_id, local_id, provider_id, raw_id, federated_id, email,
                    display_name, photo_url, screen_name, phone_number, position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(scope.projectId), .text(scope.tenantKey), .text(user.localId), .text(link.providerId),
                    .text(link.rawId), SQLiteValue(link.federatedId), SQLiteValue(link.email),
                    SQLiteValue(link.displayName), SQLiteValue(link.photoUrl), SQLiteValue(link.screenName),
                    SQLiteValue(link.phoneNumber), .integer(Int64(position)),
                ])
    }

    /// Every link to `providerId` in the scope, oldest user first: the sign-in page's account list.
    func links(providerId: String, in scope: UserScope, limit: Int) throws -> [ProviderUserInfo] {
        let rows = try connection.query(
            """
            SELECT l.provider_id, l.raw_id, l.federated_id, l.email, l.display_name, l.photo_url, l.screen_name,
                l.phone_number
            FROM provider_links l JOIN users u USING (project_id, tenant_id, local_id)
            WHERE l.project_id = ? AND l.tenant_id = ? AND l.provider_id = ? ORDER BY u.created_at LIMIT ?
            """, [.text(scope.projectId), .text(scope.tenantKey), .text(providerId), .integer(Int64(limit))])
        return rows.map(Self.decodeLink)
    }

    /// Deletes the user; its provider links go with it. Its refresh tokens stay, so that using one
    /// answers `USER_NOT_FOUND` as production does rather than a vaguer invalid-token error.
    func delete(localId: String, in scope: UserScope) throws {
        try connection.execute(
            "DELETE FROM users WHERE project_id = ? AND tenant_id = ? AND local_id = ?",
            [.text(scope.projectId), .text(scope.tenantKey), .text(localId)])
    }

    /// Deletes every user of one project or tenant, and their refresh tokens.
    func deleteAll(in scope: UserScope) throws {
        let arguments: [SQLiteValue] = [.text(scope.projectId), .text(scope.tenantKey)]
        try connection.execute("DELETE FROM users WHERE project_id = ? AND tenant_id = ?", arguments)
        try connection.execute("DELETE FROM refresh_tokens WHERE project_id = ? AND tenant_id = ?", arguments)
    }
}

extension UserRepository {
    /// The tenants of `projectId` that hold users (the empty string is "no tenant"), sorted.
    func tenantKeys(projectId: String) throws -> [String] {
        try connection.query(
            "SELECT DISTINCT tenant_id FROM users WHERE project_id = ? ORDER BY tenant_id", [.text(projectId)]
        ).compactMap { $0[0].text }
    }

    /// Every project that holds users, sorted.
    func projectIds() throws -> [String] {
        try connection.query("SELECT DISTINCT project_id FROM users ORDER BY project_id", []).compactMap { $0[0].text }
    }
}

extension UserRepository {
    /// Whether a user of the scope other than `localId` holds the second factor `mfaEnrollmentId`.
    func otherUserHoldsEnrollment(_ mfaEnrollmentId: String, besides localId: String, in scope: UserScope) throws -> Bool {
        try connection.queryFirst(
            """
            SELECT 1 FROM users WHERE project_id = ? AND tenant_id = ? AND local_id != ? AND mfa_info IS NOT NULL
                AND EXISTS (SELECT 1 FROM json_each(mfa_info) WHERE json_extract(value, '$.mfaEnrollmentId') = ?)
            """, [.text(scope.projectId), .text(scope.tenantKey), .text(localId), .text(mfaEnrollmentId)]) != nil
    }
}

extension SQLiteRow {
    fileprivate subscript(column: UserRepository.UserColumn) -> SQLiteValue { self[column.rawValue] }
}
