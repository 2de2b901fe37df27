import JSON
import SQLiteStore

/// Reads and writes accounts inside one store transaction. Lives only as long as the
/// transaction's connection.
struct UserRepository {
    let connection: SQLiteConnection
    /// In a read transaction, whose users are never saved: the records read carry no
    /// `storedRecord` snapshot, which only `save` reads. Copying each user into one and freeing
    /// it again cost ~4k instructions of a lookup by ID token (callgrind). A record read so and
    /// saved after all still has `storedProviders`, so `save` writes it whole (as an upsert).
    var readOnly = false

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

    private static let columnNames = UserColumn.allCases.map(\.name)
    private static let userColumns = columnNames.joined(separator: ", ")
    /// Selected after the user's columns: whether the user has any provider link, so that the
    /// links are queried only for users that have some (most have none). Asked inside the same
    /// statement, it costs an index probe; the links query it spares cost ~9k instructions a
    /// user read (callgrind, lookup).
    private static let hasLinksColumn = UserColumn.allCases.count
    private static let hasLinks = """
        EXISTS (SELECT 1 FROM provider_links l
                WHERE l.project_id = users.project_id AND l.tenant_id = users.tenant_id AND l.local_id = users.local_id)
        """

    /// The SELECT of `users(where:)`, for the rarer reads (pages, searches, passkeys): the links
    /// are queried after it, for users that have some.
    private static func selectUsers(where clause: String, orderBy: String? = "local_id") -> String {
        "SELECT \(userColumns), \(hasLinks) FROM users WHERE project_id = ?1 AND tenant_id = ?2 AND \(clause)"
            + (orderBy.map { " ORDER BY \($0)" } ?? "")
    }

    /// The frequent reads (by id, by email, by provider link) read each user's links in the same
    /// statement: users LEFT JOIN provider_links, one row per link (one with NULL link columns for
    /// a user without links), after the user's columns and its rowid, which tells one user's rows
    /// from the next. A LEFT JOIN keeps users the outer loop, so one user's rows come together.
    /// A returning provider user was read in three statements (an IN list of the link, the user
    /// with EXISTS, the links with a sorter for ORDER BY position): ~86k -> ~41k instructions
    /// (callgrind, idp-returning).
    private static func selectUsersWithLinks(where clause: String) -> String {
        "SELECT \(columnNames.map { "u." + $0 }.joined(separator: ", ")), u.rowid, \(Link.columns.map { "l." + $0 }.joined(separator: ", "))"
            + " FROM users u LEFT JOIN provider_links l"
            + " ON l.project_id = u.project_id AND l.tenant_id = u.tenant_id AND l.local_id = u.local_id"
            + " WHERE u.project_id = ?1 AND u.tenant_id = ?2 AND \(clause)"
    }
    /// Where the row's user id and link columns start, in `selectUsersWithLinks` rows.
    private static let joinedRowidColumn = UserColumn.allCases.count
    private static let joinedLinkColumn = UserColumn.allCases.count + 1
    /// One row at most: (project, tenant, local id) is the key. No ORDER BY, so no sorter.
    private static let selectByLocalId = selectUsersWithLinks(where: "u.local_id = ?3")
    /// Unordered: `users(email:)` orders the users itself (see there).
    private static let selectByEmail = selectUsersWithLinks(where: "u.email = ?3")
    /// The user holding the link: a scalar subquery on the UNIQUE (provider, raw id) index, one
    /// value at most, where `IN (SELECT …)` built an ephemeral table for its list.
    private static let selectByProviderLink = selectUsersWithLinks(
        where: """
            u.local_id = (SELECT local_id FROM provider_links
                          WHERE project_id = ?1 AND tenant_id = ?2 AND provider_id = ?3 AND raw_id = ?4)
            """)
    /// A user the store does not hold yet: a plain INSERT, whose primary key catches a duplicate id.
    private static let insertUser = """
        INSERT INTO users (project_id, tenant_id, \(Self.userColumns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// A record that replaces a stored user without having been read from the store (an import
    /// that overwrites): every column, whatever it held.
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
        // Moved out of the array (one user at most: the id is the key), where `.first` copied it.
        var users = try users(joining: Self.selectByLocalId, [.text(localId)], in: scope)
        return users.popLast()
    }

    /// Users whose top-level email is `email` (already lower-cased), oldest first.
    func users(email: String, in scope: UserScope) throws -> [UserRecord] {
        let users = try users(joining: Self.selectByEmail, [.text(email)], in: scope)
        // `ORDER BY created_at, local_id` here rather than in SQL: nearly always one user, and
        // SQLite would still set up a sorter for it on every sign-in. Ids compare as their bytes,
        // as SQL's BINARY collation does.
        guard users.count > 1 else { return users }
        return users.sorted {
            $0.createdAt != $1.createdAt
                ? $0.createdAt < $1.createdAt : $0.localId.utf8.lexicographicallyPrecedes($1.localId.utf8)
        }
    }

    /// Who holds `email` (already lower-cased) when only their name is wanted: the oldest such
    /// user, as `users(email:).first`, read from three columns rather than as a whole record
    /// with its links (sendOobCode's greeting: ~13k instructions a send for the whole row).
    func emailOwner(_ email: String, in scope: UserScope) throws -> EmailOwner? {
        let owners = try connection.query(
            Self.selectEmailOwners, [.text(scope.projectId), .text(scope.tenantKey), .text(email)]
        ) { row in
            (createdAt: row.integer(0) ?? 0, localId: row.text(1) ?? "", owner: EmailOwner(displayName: row.text(2)))
        }
        // The oldest first, as `users(email:)` orders them (nearly always there is one).
        return owners.min {
            $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.localId.utf8.lexicographicallyPrecedes($1.localId.utf8)
        }?.owner
    }
    private static let selectEmailOwners =
        "SELECT created_at, local_id, display_name FROM users WHERE project_id = ?1 AND tenant_id = ?2 AND email = ?3"

    struct EmailOwner {
        let displayName: String?
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
        try users(joining: Self.selectByProviderLink, [.text(providerId), .text(rawId)], in: scope).first
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
    /// `text` is empty. A text that is some user's exact uid, email or phone number finds those users
    /// by index and nothing else: the substring search reads every user of the scope until a page
    /// is full, which for a text only one user holds is all of them (0.3-0.55 s at 1M users).
    func search(_ text: String, in scope: UserScope, after cursor: NewestFirstCursor?, limit: Int) throws -> [UserRecord] {
        var source = UserQuery().source
        var filter = ""
        if !text.isEmpty {
            let exact = UserQuery(userIds: [text], emails: [EmailAddress.canonical(text)], phoneNumbers: [text]).source
            if try connection.queryFirst("SELECT 1 FROM \(exact.sql) LIMIT 1", Self.scopeArguments(scope) + exact.arguments) != nil {
                source = exact
            } else {
                filter = Self.containing(text, pattern: "?3")
                let escaped = text.replacingEvery("\\", with: "\\\\").replacingEvery("%", with: "\\%")
                    .replacingEvery("_", with: "\\_")
                source.arguments = [.text("%\(escaped)%")]
            }
        }
        // Keyset paging on (created_at, local_id) descending, along `users_by_creation`; the first
        // page starts before the end of time.
        let next = source.arguments.count + 3
        let sql = "SELECT \(Self.userColumns), \(Self.hasLinks) FROM \(source.sql)\(filter)"
            + " AND (created_at, local_id) < (?\(next), ?\(next + 1)) ORDER BY created_at DESC, local_id DESC LIMIT ?\(next + 2)"
        let page: [SQLiteValue] = [.integer(cursor?.createdAt ?? Int64.max), .text(cursor?.localId ?? ""), .integer(Int64(limit))]
        return try users(selecting: sql, source.arguments + page, in: scope)
    }

    /// The search's substring terms, `pattern` being the escaped `%text%`.
    private static func containing(_ text: String, pattern: String) -> String {
        let lowered = text.lowercased()
        let derived = lowered == "password" ? " OR password_hash IS NOT NULL OR fake_password IS NOT NULL OR email_link_signin = 1"
            : lowered == "phone" ? " OR phone_number IS NOT NULL" : ""
        return """
             AND (local_id LIKE \(pattern) ESCAPE '\\' OR email LIKE \(pattern) ESCAPE '\\'
                OR phone_number LIKE \(pattern) ESCAPE '\\' OR display_name LIKE \(pattern) ESCAPE '\\'\(derived)
                OR local_id IN (
                    SELECT local_id FROM provider_links WHERE project_id = ?1 AND tenant_id = ?2
                    AND (provider_id LIKE \(pattern) ESCAPE '\\' OR raw_id LIKE \(pattern) ESCAPE '\\'
                        OR email LIKE \(pattern) ESCAPE '\\')))
            """
    }

    func count(in scope: UserScope) throws -> Int {
        let row = try connection.queryFirst(
            "SELECT count(*) FROM users WHERE project_id = ? AND tenant_id = ?", [.text(scope.projectId), .text(scope.tenantKey)])
        return Int(row?[0].integer ?? 0)
    }

    /// How many users `query` matches: `count(*)` on an index, nothing read into memory.
    func count(matching query: UserQuery, in scope: UserScope) throws -> Int {
        let source = query.source
        let row = try connection.queryFirst("SELECT count(*) FROM \(source.sql)", Self.scopeArguments(scope) + source.arguments)
        return Int(row?[0].integer ?? 0)
    }

    /// The page of users `query` answers, in its order.
    func users(matching query: UserQuery, in scope: UserScope) throws -> [UserRecord] {
        let source = query.source
        let page = source.arguments.count + 3
        return try users(
            selecting: "SELECT \(Self.userColumns), \(Self.hasLinks) FROM \(source.sql) ORDER BY \(query.orderBy) LIMIT ?\(page) OFFSET ?\(page + 1)",
            source.arguments + [.integer(Int64(query.limit)), .integer(Int64(query.offset))], in: scope)
    }

    private static func scopeArguments(_ scope: UserScope) -> [SQLiteValue] { [.text(scope.projectId), .text(scope.tenantKey)] }

    /// Users matching `clause`; the clause's own `?` arguments follow `?1` (project) and `?2` (tenant).
    private func users(
        where clause: String, _ arguments: [SQLiteValue], in scope: UserScope, orderBy: String? = "local_id"
    ) throws -> [UserRecord] {
        try users(selecting: Self.selectUsers(where: clause, orderBy: orderBy), arguments, in: scope)
    }

    private func users(selecting sql: String, _ arguments: [SQLiteValue], in scope: UserScope) throws -> [UserRecord] {
        let rows = try connection.query(sql, [.text(scope.projectId), .text(scope.tenantKey)] + arguments) {
            (user: UserRecord($0, scope: scope), hasLinks: $0.bool(Self.hasLinksColumn) ?? true)
        }
        // The links are read once the users' statement is done, not in the middle of its rows.
        return try rows.map { row in
            var user = row.user
            user.providers = row.hasLinks ? try providers(of: user.localId, in: scope) : []
            user.storedProviders = user.providers
            if !readOnly { user.storedRecord = StoredUserRecord(user) }
            return user
        }
    }

    /// Users and their links from a `selectUsersWithLinks` statement.
    private func users(joining sql: String, _ arguments: [SQLiteValue], in scope: UserScope) throws -> [UserRecord] {
        var users: [UserRecord] = []
        var links: [[Link]] = []
        var lastRowid: Int64?
        _ = try connection.query(sql, [.text(scope.projectId), .text(scope.tenantKey)] + arguments) { row in
            let rowid = row.integer(Self.joinedRowidColumn)
            if rowid != lastRowid {
                lastRowid = rowid
                users.append(UserRecord(row, scope: scope))
                links.append([])
            }
            if let link = Link(row, from: Self.joinedLinkColumn) { links[links.count - 1].append(link) }
        }
        for index in users.indices {
            users[index].providers = Link.ordered(links[index])
            users[index].storedProviders = users[index].providers
            if !readOnly { users[index].storedRecord = StoredUserRecord(users[index]) }
        }
        return users
    }

    /// A JSON array column, one element per entry (nil and malformed text read as empty).
    /// `fakeHash:salt=<salt>:password=`: what the emulator's own hash of a password holds before it.
    private static func fakeHashPrefix(salt: String) -> String { FakePasswordHash.hash("", salt: salt) }

    /// The columns for `user.passwordHash`: the emulator's own hash of the user's salt is kept as
    /// the password alone (`fake_password`), since the rest repeats the salt; any other hash as is.
    /// Compared as bytes, so reading it back rebuilds exactly the same string.
    private static func storedPassword(_ user: UserRecord) -> (hash: SQLiteValue, fakePassword: SQLiteValue) {
        guard let hash = user.passwordHash, let salt = user.salt else { return (SQLiteValue(user.passwordHash), .null) }
        let prefix = fakeHashPrefix(salt: salt)
        // Byte-wise, as `=` in SQL (and not `hasPrefix`, which compares Unicode characters).
        guard let password = hash.droppingUTF8Prefix(prefix) else { return (.text(hash), .null) }
        return (.null, .text(password))
    }

    fileprivate static func decodeList<Element>(_ text: String?, _ decode: (JSONObject) -> Element?) -> [Element] {
        guard let text, let elements = try? JSONValue(parsing: text).arrayValue else { return [] }
        return elements.compactMap { $0.objectValue.flatMap(decode) }
    }

    private static func encodeList(_ objects: [JSONObject]) -> SQLiteValue {
        objects.isEmpty ? .null : .text(JSONValue.array(objects.map { .object($0) }).compactString)
    }

    private func providers(of localId: String, in scope: UserScope) throws -> [ProviderUserInfo] {
        let links = try connection.query(
            "SELECT \(Link.columns.joined(separator: ", ")) FROM provider_links WHERE project_id = ? AND tenant_id = ? AND local_id = ?",
            [.text(scope.projectId), .text(scope.tenantKey), .text(localId)]
        ) { Link($0, from: 0) }
        return Link.ordered(links.compactMap { $0 })
    }

    /// A provider link as read, with its position among the user's links.
    private struct Link {
        /// The columns read, in this order, from `provider_links`.
        static let columns = [
            "provider_id", "raw_id", "federated_id", "email", "display_name", "photo_url", "screen_name", "phone_number",
            "position",
        ]
        let info: ProviderUserInfo
        let position: Int64

        /// The link whose columns start at `first`; nil where they are NULL (a user without links,
        /// in a LEFT JOIN).
        init?(_ row: SQLiteRowReader, from first: Int) {
            guard let providerId = row.text(first) else { return nil }
            info = ProviderUserInfo(
                providerId: providerId, rawId: row.text(first + 1) ?? "", federatedId: row.text(first + 2),
                email: row.text(first + 3), displayName: row.text(first + 4), photoUrl: row.text(first + 5),
                screenName: row.text(first + 6), phoneNumber: row.text(first + 7))
            position = row.integer(first + 8) ?? 0
        }

        /// The links in their stored order, sorted here rather than by `ORDER BY position`, for
        /// which SQLite set up a sorter on every read (nearly always of one link).
        static func ordered(_ links: [Link]) -> [ProviderUserInfo] {
            guard links.count > 1 else { return links.map(\.info) }
            return links.sorted { $0.position < $1.position }.map(\.info)
        }
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
    ///
    /// A user read from the store (`storedRecord`) has only the columns that changed since written,
    /// in an UPDATE: a sign-in then writes its two timestamps and touches none of the users
    /// table's five indexes, where writing every column rewrote each index entry (a sign-in's
    /// save: ~40k -> ~22k instructions, callgrind). A user never stored is a plain INSERT.
    func save(_ user: inout UserRecord) throws {
        if let stored = user.storedRecord?.record {
            let changed = Self.columns(of: user, changedSince: stored)
            if !changed.isEmpty {
                try update(changed, of: user)
                // Deleted since it was read, in this transaction: written whole again, as before.
                if connection.changes == 0 { try write(user, sql: Self.upsertUser) }
            }
        } else if user.storedProviders == nil {
            do {
                try write(user, sql: Self.insertUser)
            } catch let error as SQLiteError where error.code == 1555 {  // SQLITE_CONSTRAINT_PRIMARYKEY
                throw AuthError.invalid("DUPLICATE_LOCAL_ID")
            }
        } else {
            try write(user, sql: Self.upsertUser)
        }
        if user.providers != user.storedProviders {
            try replaceProviders(of: user)
            user.storedProviders = user.providers
        }
        user.storedRecord = StoredUserRecord(user)
    }

    /// Every column of `user`, by `sql` (`insertUser` or `upsertUser`).
    private func write(_ user: UserRecord, sql: String) throws {
        let scope = user.scope
        let password = Self.storedPassword(user)
        var arguments: [SQLiteValue] = [.text(scope.projectId), .text(scope.tenantKey)]
        arguments.reserveCapacity(2 + UserColumn.allCases.count)
        for column in UserColumn.allCases { arguments.append(Self.value(of: column, in: user, password: password)) }
        try connection.execute(sql, arguments)
    }

    /// The `changed` columns of a stored user.
    private func update(_ changed: [UserColumn], of user: UserRecord) throws {
        let password = changed.contains(.passwordHash) ? Self.storedPassword(user) : (hash: .null, fakePassword: .null)
        var arguments: [SQLiteValue] = []
        arguments.reserveCapacity(changed.count + 3)
        for column in changed { arguments.append(Self.value(of: column, in: user, password: password)) }
        arguments += [.text(user.scope.projectId), .text(user.scope.tenantKey), .text(user.localId)]
        try connection.execute(Self.updateStatements.sql(setting: changed), arguments)
    }

    /// The UPDATE for each set of columns a save changes, made once: a handful of sets occur (a
    /// sign-in's two timestamps, a refresh's one), and building the text anew each time cost
    /// ~6k instructions, a third as much as running it.
    private static let updateStatements = UpdateStatements()

    private final class UpdateStatements: Sendable {
        private let texts = Locked<[UInt32: String]>([:])

        func sql(setting columns: [UserColumn]) -> String {
            let key = columns.reduce(UInt32(0)) { $0 | 1 << UInt32($1.rawValue) }
            if let sql = texts.withLock({ $0[key] }) { return sql }
            let sql = "UPDATE users SET " + columns.map { UserRepository.columnNames[$0.rawValue] + " = ?" }.joined(separator: ", ")
                + " WHERE project_id = ? AND tenant_id = ? AND local_id = ?"
            texts.withLock { $0[key] = sql }
            return sql
        }
    }

    /// The columns whose stored value `user` changes from `stored`'s. Strings copied from the
    /// stored record share its storage, so comparing an unchanged one costs a pointer check.
    private static func columns(of user: UserRecord, changedSince stored: UserRecord) -> [UserColumn] {
        var changed: [UserColumn] = []
        for column in UserColumn.allCases {
            let differs: Bool
            switch column {
            case .localId: differs = false  // the key
            case .email: differs = user.email != stored.email
            case .emailVerified: differs = user.emailVerified != stored.emailVerified
            case .displayName: differs = user.displayName != stored.displayName
            case .photoUrl: differs = user.photoUrl != stored.photoUrl
            case .phoneNumber: differs = user.phoneNumber != stored.phoneNumber
            // The three columns a password is kept in (see `storedPassword`) change together.
            case .passwordHash, .salt, .fakePassword:
                differs = user.passwordHash != stored.passwordHash || user.salt != stored.salt
            case .passwordUpdatedAt: differs = user.passwordUpdatedAt != stored.passwordUpdatedAt
            case .validSince: differs = user.validSinceSeconds != stored.validSinceSeconds
            case .createdAt: differs = user.createdAt != stored.createdAt
            case .lastLoginAt: differs = user.lastLoginAt != stored.lastLoginAt
            case .lastRefreshAt: differs = user.lastRefreshAt != stored.lastRefreshAt
            case .disabled: differs = user.disabled != stored.disabled
            case .customAttributes: differs = user.customAttributes != stored.customAttributes
            case .customAuth: differs = user.customAuth != stored.customAuth
            case .emailLinkSignin: differs = user.emailLinkSignin != stored.emailLinkSignin
            case .initialEmail: differs = user.initialEmail != stored.initialEmail
            case .mfaInfo:
                differs = user.mfaEnrollments != stored.mfaEnrollments
                    || user.listsWithdrawnFactors != stored.listsWithdrawnFactors
            case .passkeyInfo: differs = user.passkeys != stored.passkeys
            case .passwordHashConfig: differs = user.importedPasswordHash != stored.importedPasswordHash
            case .screenName: differs = user.screenName != stored.screenName
            }
            if differs { changed.append(column) }
        }
        return changed
    }

    /// What `column` holds for `user`; `password` is `storedPassword(user)` (read only for its columns).
    private static func value(
        of column: UserColumn, in user: UserRecord, password: (hash: SQLiteValue, fakePassword: SQLiteValue)
    ) -> SQLiteValue {
        switch column {
        case .localId: return .text(user.localId)
        case .email: return SQLiteValue(user.email)
        case .emailVerified: return SQLiteValue(user.emailVerified)
        case .displayName: return SQLiteValue(user.displayName)
        case .photoUrl: return SQLiteValue(user.photoUrl)
        case .phoneNumber: return SQLiteValue(user.phoneNumber)
        case .passwordHash: return password.hash
        case .salt: return SQLiteValue(user.salt)
        case .passwordUpdatedAt: return SQLiteValue(user.passwordUpdatedAt?.millisecondsSinceEpoch)
        case .validSince: return SQLiteValue(user.validSinceSeconds)
        case .createdAt: return .integer(user.createdAt.millisecondsSinceEpoch)
        case .lastLoginAt: return SQLiteValue(user.lastLoginAt?.millisecondsSinceEpoch)
        case .lastRefreshAt: return SQLiteValue(user.lastRefreshAt?.millisecondsSinceEpoch)
        case .disabled: return SQLiteValue(user.disabled)
        case .customAttributes: return SQLiteValue(user.customAttributes)
        case .customAuth: return SQLiteValue(user.customAuth)
        case .emailLinkSignin: return SQLiteValue(user.emailLinkSignin)
        case .initialEmail: return SQLiteValue(user.initialEmail)
        case .mfaInfo:
            return user.listsWithdrawnFactors ? .text("[]") : encodeList(user.mfaEnrollments.map(\.storedJSON))
        case .passkeyInfo: return encodeList(user.passkeys.map(\.json))
        case .passwordHashConfig: return SQLiteValue(user.importedPasswordHash.map { JSONValue.object($0.json).compactString })
        case .screenName: return SQLiteValue(user.screenName)
        case .fakePassword: return password.fakePassword
        }
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

    /// Deletes up to `limit` users of one project or tenant (their links go with them) and up to
    /// `limit` of its refresh tokens; true when either step was full, so more may be left. One step of
    /// `AuthStore.deleteAllUsers`: one transaction over every user of a scope held every other write
    /// back (3 s at 1M users) and journalled every page it freed (122 MB more resident afterwards).
    func deleteSome(in scope: UserScope, limit: Int) throws -> Bool {
        let arguments = Self.scopeArguments(scope) + [.integer(Int64(limit))]
        try connection.execute(
            "DELETE FROM users WHERE rowid IN (SELECT rowid FROM users WHERE project_id = ?1 AND tenant_id = ?2 LIMIT ?3)",
            arguments)
        let users = connection.changes
        try connection.execute(
            """
            DELETE FROM refresh_tokens WHERE token_sha256 IN (
                SELECT token_sha256 FROM refresh_tokens WHERE project_id = ?1 AND tenant_id = ?2 LIMIT ?3)
            """, arguments)
        return users == limit || connection.changes == limit
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

extension UserRecord {
    /// The user's own columns, read in place; its links are the caller's to add. A non-delegating
    /// initializer sets each property once: filling a record made by `init(localId:…)` assigned
    /// over its defaults, destroying each old value first (~0.9k instructions a read, callgrind).
    /// The properties not set here keep their defaults.
    fileprivate init(_ row: SQLiteRowReader, scope: UserScope) {
        localId = row.text(.localId) ?? ""
        self.scope = scope
        createdAt = Instant(millisecondsSinceEpoch: row.integer(.createdAt) ?? 0)
        email = row.text(.email)
        emailVerified = row.bool(.emailVerified)
        displayName = row.text(.displayName)
        photoUrl = row.text(.photoUrl)
        screenName = row.text(.screenName)
        phoneNumber = row.text(.phoneNumber)
        let salt = row.text(.salt)
        self.salt = salt
        passwordHash = row.text(.passwordHash) ?? row.text(.fakePassword).map { FakePasswordHash.hash($0, salt: salt ?? "") }
        passwordUpdatedAt = row.integer(.passwordUpdatedAt).map(Instant.init(millisecondsSinceEpoch:))
        validSinceSeconds = row.integer(.validSince)
        lastLoginAt = row.integer(.lastLoginAt).map(Instant.init(millisecondsSinceEpoch:))
        lastRefreshAt = row.integer(.lastRefreshAt).map(Instant.init(millisecondsSinceEpoch:))
        disabled = row.bool(.disabled) ?? false
        customAttributes = row.text(.customAttributes)
        customAuth = row.bool(.customAuth) ?? false
        emailLinkSignin = row.bool(.emailLinkSignin) ?? false
        initialEmail = row.text(.initialEmail)
        let mfaInfo = row.text(.mfaInfo)
        mfaEnrollments = UserRepository.decodeList(mfaInfo, MFAEnrollment.init(stored:))  // no didSet in an init
        listsWithdrawnFactors = mfaEnrollments.isEmpty && mfaInfo != nil
        passkeys = UserRepository.decodeList(row.text(.passkeyInfo), Passkey.init(stored:))
        importedPasswordHash = row.text(.passwordHashConfig)
            .flatMap { try? JSONValue(parsing: $0).objectValue }.flatMap(ImportedPasswordHash.init(stored:))
    }
}

extension SQLiteRowReader {
    fileprivate func text(_ column: UserRepository.UserColumn) -> String? { text(column.rawValue) }
    fileprivate func integer(_ column: UserRepository.UserColumn) -> Int64? { integer(column.rawValue) }
    fileprivate func bool(_ column: UserRepository.UserColumn) -> Bool? { bool(column.rawValue) }
}

/// A user as it was last read from or written to the store, kept in its record so that `save`
/// writes only the columns that changed since.
final class StoredUserRecord: Sendable, Equatable {
    let record: UserRecord

    /// `user` as stored now (without its own earlier snapshot, so that snapshots do not chain).
    init(_ user: UserRecord) {
        var record = user
        record.storedRecord = nil
        self.record = record
    }

    static func == (lhs: StoredUserRecord, rhs: StoredUserRecord) -> Bool { lhs === rhs || lhs.record == rhs.record }
}

extension String {
    /// The rest of this text after `prefix`, compared byte for byte; nil when it does not start so.
    /// On the bytes in place: through `UTF8View.starts(with:)` this was 1.5% of a sign-in.
    fileprivate func droppingUTF8Prefix(_ prefix: String) -> String? {
        var text = self
        var prefix = prefix
        return text.withUTF8 { bytes in
            prefix.withUTF8 { start in
                guard bytes.count >= start.count, UnsafeBufferPointer(rebasing: bytes.prefix(start.count)).elementsEqual(start)
                else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst(start.count)), as: UTF8.self)
            }
        }
    }
}
