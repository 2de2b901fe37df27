import SQLiteStore

/// The emulator's tables. Every user-scoped row carries `(project_id, tenant_id)`; the empty string
/// is "no tenant", so that the pair can sit in primary keys.
enum Schema {
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "accounts",
            sql: """
                CREATE TABLE project_config (
                    project_id TEXT PRIMARY KEY,
                    allow_duplicate_emails INTEGER NOT NULL DEFAULT 0,
                    improved_email_privacy INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE users (
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    email TEXT,
                    email_verified INTEGER,
                    display_name TEXT,
                    photo_url TEXT,
                    phone_number TEXT,
                    password_hash TEXT,
                    salt TEXT,
                    password_updated_at INTEGER,
                    valid_since INTEGER,
                    created_at INTEGER NOT NULL,
                    last_login_at INTEGER,
                    last_refresh_at INTEGER,
                    disabled INTEGER NOT NULL DEFAULT 0,
                    custom_attributes TEXT,
                    custom_auth INTEGER NOT NULL DEFAULT 0,
                    email_link_signin INTEGER NOT NULL DEFAULT 0,
                    initial_email TEXT,
                    mfa_info TEXT,
                    PRIMARY KEY (project_id, tenant_id, local_id)
                );
                CREATE INDEX users_by_email ON users (project_id, tenant_id, email);
                CREATE INDEX users_by_phone ON users (project_id, tenant_id, phone_number);
                CREATE TABLE provider_links (
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    raw_id TEXT NOT NULL,
                    federated_id TEXT,
                    email TEXT,
                    display_name TEXT,
                    photo_url TEXT,
                    screen_name TEXT,
                    phone_number TEXT,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (project_id, tenant_id, local_id, provider_id),
                    FOREIGN KEY (project_id, tenant_id, local_id)
                        REFERENCES users (project_id, tenant_id, local_id) ON DELETE CASCADE
                );
                CREATE INDEX provider_links_by_identity ON provider_links (project_id, tenant_id, provider_id, raw_id);
                CREATE INDEX provider_links_by_email ON provider_links (project_id, tenant_id, email);
                CREATE TABLE refresh_tokens (
                    token TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    sign_in_provider TEXT NOT NULL,
                    extra_claims TEXT,
                    second_factor TEXT,
                    issued_at INTEGER NOT NULL
                );
                CREATE INDEX refresh_tokens_by_user ON refresh_tokens (project_id, tenant_id, local_id);
                """),
            Migration(
            version: 2, name: "federation",
            sql: """
                -- "Already linked" holds in the database: one user per (provider, raw id). Version 1
                -- let linkProviderUserInfo store duplicates; the oldest link of each is kept.
                DELETE FROM provider_links WHERE rowid NOT IN (
                    SELECT MIN(rowid) FROM provider_links GROUP BY project_id, tenant_id, provider_id, raw_id);
                DROP INDEX provider_links_by_identity;
                CREATE UNIQUE INDEX provider_links_by_identity
                    ON provider_links (project_id, tenant_id, provider_id, raw_id);
                -- Emulator-wide values that survive a restart with --data (the clock's offset).
                CREATE TABLE emulator_state (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                -- The fake identity providers' signing keys. Retired keys stay published in the JWKS.
                CREATE TABLE idp_keys (
                    kid TEXT PRIMARY KEY,
                    provider_id TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    private_key_pem TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    retired_at INTEGER
                );
                CREATE UNIQUE INDEX idp_keys_active ON idp_keys (provider_id, algorithm) WHERE retired_at IS NULL;
                -- The fake providers' own users: who was minted or added on the sign-in page.
                CREATE TABLE idp_accounts (
                    provider_id TEXT NOT NULL,
                    sub TEXT NOT NULL,
                    email TEXT,
                    name TEXT,
                    picture TEXT,
                    hide_email INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (provider_id, sub)
                );
                -- Opaque access tokens the providers issued (Facebook's classic token, resolved by /me).
                CREATE TABLE idp_access_tokens (
                    token TEXT PRIMARY KEY,
                    provider_id TEXT NOT NULL,
                    sub TEXT NOT NULL,
                    claims TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE TABLE apple_authorization_codes (
                    code TEXT PRIMARY KEY,
                    sub TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    issued_at INTEGER NOT NULL
                );
                CREATE TABLE apple_revocations (
                    code TEXT NOT NULL,
                    sub TEXT NOT NULL,
                    project_id TEXT NOT NULL,
                    revoked_at INTEGER NOT NULL
                );
                -- Hide My Email: one relay address per (Apple user, audience), forwarding to the real one.
                CREATE TABLE apple_relay_addresses (
                    address TEXT PRIMARY KEY,
                    sub TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    forward_to TEXT NOT NULL,
                    forwarding INTEGER NOT NULL DEFAULT 1,
                    created_at INTEGER NOT NULL,
                    UNIQUE (sub, audience)
                );
                -- Production's provider settings (defaultSupportedIdpConfigs): client ids a token's aud must match.
                CREATE TABLE idp_configs (
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    config TEXT NOT NULL,
                    PRIMARY KEY (project_id, tenant_id, provider_id)
                );
                """),
            Migration(
            version: 3, name: "email actions",
            sql: """
                -- Email action codes (oobCode), until used or the data is cleared. Expiry is checked
                -- by the emulator clock when a code is used.
                CREATE TABLE oob_codes (
                    code TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    request_type TEXT NOT NULL,
                    email TEXT,
                    new_email TEXT,
                    oob_link TEXT NOT NULL,
                    continue_url TEXT,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX oob_codes_by_scope ON oob_codes (project_id, tenant_id, created_at);
                -- Every email the emulator "sent", with where the relay delivered it.
                CREATE TABLE outbox_messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    from_address TEXT NOT NULL,
                    to_address TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    text_body TEXT NOT NULL,
                    html_body TEXT NOT NULL,
                    request_type TEXT NOT NULL,
                    oob_code TEXT,
                    oob_link TEXT,
                    app_link TEXT,
                    continue_url TEXT,
                    created_at INTEGER NOT NULL,
                    delivery_status TEXT NOT NULL,
                    forwarded_to TEXT,
                    delivery_reason TEXT
                );
                CREATE INDEX outbox_by_project ON outbox_messages (project_id, id);
                -- Senders each project registered with Apple's relay (absent: the default sender only).
                CREATE TABLE relay_senders (
                    project_id TEXT PRIMARY KEY,
                    senders TEXT NOT NULL
                );
                """),
            Migration(
            version: 4, name: "phone and second factors",
            sql: """
                ALTER TABLE users ADD COLUMN passkey_info TEXT;
                -- SMS codes (sign-in, MFA enrollment, MFA sign-in) and TOTP enrollments in progress.
                CREATE TABLE verification_sessions (
                    session_info TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    purpose TEXT NOT NULL,
                    phone_number TEXT,
                    code TEXT,
                    totp_secret TEXT,
                    local_id TEXT,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX verification_sessions_by_scope ON verification_sessions (project_id, tenant_id, created_at);
                -- Proof that a phone number was verified, handed back when it belongs to someone else.
                CREATE TABLE temporary_proofs (
                    proof TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    phone_number TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                -- Fictional phone numbers with fixed codes, as the console's "phone numbers for testing".
                ALTER TABLE project_config ADD COLUMN test_phone_numbers TEXT;
                """),
            // Version 8 touches only users, so it runs the same with or without a version 7.
            Migration(
            version: 8, name: "user screen names",
            sql: """
                -- The handle (screen_name) an identity provider gave when the account was made.
                ALTER TABLE users ADD COLUMN screen_name TEXT;
                """),
            // Version 6 touches only project_config and tenants, so it runs the same before or after 5.
            Migration(
            version: 6, name: "tenants and config documents",
            sql: """
                -- One JSON document per tenant (Tenant: allowPasswordSignup, disableAuth, mfaConfig, …).
                -- A tenant named but never created or patched has no row: it reads as all-enabled defaults.
                CREATE TABLE tenants (
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    config TEXT NOT NULL,
                    PRIMARY KEY (project_id, tenant_id)
                );
                -- The project config becomes the v2 config document; the old columns' values move into it.
                ALTER TABLE project_config ADD COLUMN config TEXT;
                UPDATE project_config SET config = json_object(
                    'signIn', CASE WHEN test_phone_numbers IS NULL
                        THEN json_object('allowDuplicateEmails', json(CASE WHEN allow_duplicate_emails THEN 'true' ELSE 'false' END))
                        ELSE json_object(
                            'allowDuplicateEmails', json(CASE WHEN allow_duplicate_emails THEN 'true' ELSE 'false' END),
                            'phoneNumber', json_object('testPhoneNumbers', json(test_phone_numbers)))
                        END,
                    'emailPrivacyConfig', json_object(
                        'enableImprovedEmailPrivacy', json(CASE WHEN improved_email_privacy THEN 'true' ELSE 'false' END)));
                """),
            Migration(
            version: 10, name: "the app's own mail through SMTP",
            sql: """
                -- `auth` for Firebase's own emails and SMS, `smtp` for mail the app sent to the listener.
                ALTER TABLE outbox_messages ADD COLUMN source TEXT NOT NULL DEFAULT 'auth';
                -- SMTP only: the envelope and header addresses, Message-ID and attachments (one JSON
                -- object), and the raw message, kept once per SMTP transaction for all its recipients.
                ALTER TABLE outbox_messages ADD COLUMN mail_details TEXT;
                ALTER TABLE outbox_messages ADD COLUMN raw_source_id INTEGER;
                CREATE TABLE smtp_sources (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    raw BLOB NOT NULL
                );
                -- The relay's daily limit counts what each relay address received in the last day.
                CREATE INDEX outbox_by_recipient_time ON outbox_messages (to_address, created_at);
                -- Relay settings beside the registered senders: domains whose SPF check is simulated
                -- as failing, and the per-address daily limit.
                ALTER TABLE relay_senders ADD COLUMN spf_failing_domains TEXT;
                ALTER TABLE relay_senders ADD COLUMN daily_limit INTEGER;
                """),
            Migration(
            version: 5, name: "imported password hashes",
            sql: """
                -- The algorithm and parameters of a password hash imported through accounts:batchCreate
                -- (JSON: hashAlgorithm, signerKey, saltSeparator, rounds, memoryCost, …); NULL for the
                -- emulator's own fakeHash format.
                ALTER TABLE users ADD COLUMN password_hash_config TEXT;
                """),
            Migration(
            version: 7, name: "deleted tenants",
            sql: """
                -- A deleted tenant keeps its row, marked, so that it answers TENANT_NOT_FOUND (as in
                -- production) rather than reading as a never-seen tenant's implicit defaults.
                ALTER TABLE tenants ADD COLUMN deleted_at INTEGER;
                """),
            // Numbered apart from its neighbours' steps: it touches only the outbox's indexes.
            Migration(
            version: 14, name: "outbox filter indexes",
            sql: """
                -- The outbox's equality filters (recipient, delivery status, forwarding address), newest first.
                CREATE INDEX outbox_by_recipient ON outbox_messages (project_id, to_address, id);
                CREATE INDEX outbox_by_status ON outbox_messages (project_id, delivery_status, id);
                CREATE INDEX outbox_by_forwarding ON outbox_messages (project_id, forwarded_to, id);
                """),
            Migration(
            version: 15, name: "refresh tokens by digest",
            sql: """
                -- A refresh token is kept as the SHA-256 of its string (32 bytes, not ~300 of base64
                -- JSON twice, in the row and its primary key). Rows in issue order; the index holds the
                -- digest's first 8 bytes, the lookup compares all 32.
                ALTER TABLE refresh_tokens RENAME TO refresh_tokens_by_string;
                CREATE TABLE refresh_tokens (
                    id INTEGER PRIMARY KEY,
                    token_sha256 BLOB NOT NULL,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    sign_in_provider TEXT NOT NULL,
                    extra_claims TEXT,
                    second_factor TEXT,
                    issued_at INTEGER NOT NULL
                );
                CREATE INDEX refresh_tokens_by_digest ON refresh_tokens (substr(token_sha256, 1, 8));
                -- Clearing a project or tenant deletes its tokens.
                CREATE INDEX refresh_tokens_by_scope ON refresh_tokens (project_id, tenant_id);
                """,
            transform: RefreshTokenRepository.digestTokensIssuedBefore15),
            Migration(
            version: 16, name: "user indexes: no empty entries; initial email, second factors, passkeys",
            sql: """
                -- Users without a phone number (most) or an email (anonymous ones) need no entry: every
                -- query on these columns compares them with a value, which implies IS NOT NULL.
                DROP INDEX users_by_phone;
                CREATE INDEX users_by_phone ON users (project_id, tenant_id, phone_number) WHERE phone_number IS NOT NULL;
                DROP INDEX users_by_email;
                CREATE INDEX users_by_email ON users (project_id, tenant_id, email) WHERE email IS NOT NULL;
                -- The admin lookup by `initialEmail` and RECOVER_EMAIL find a user by the email it had
                -- before a change: without an index, each read every user.
                CREATE INDEX users_by_initial_email ON users (project_id, tenant_id, initial_email)
                    WHERE initial_email IS NOT NULL;
                -- Whether another user holds a second factor's id, or whose passkey a credential is, is
                -- asked of the users that have any: without these, each question read every user.
                CREATE INDEX users_with_second_factors ON users (project_id, tenant_id) WHERE mfa_info IS NOT NULL;
                CREATE INDEX users_with_passkeys ON users (project_id, tenant_id, local_id) WHERE passkey_info IS NOT NULL;
                """),
            // Numbered apart from its neighbours' steps, as 14 is: it touches only the outbox's indexes.
            Migration(
            version: 21, name: "outbox relay indexes: relayed messages only",
            sql: """
                -- Most messages are delivered, not relayed, and no query asks either index about them:
                -- the daily limit counts relayed messages (`delivery_status = 'relayed'`, a literal in
                -- the query, so the partial index serves it), and the forwardedTo filter compares
                -- `forwarded_to` with a value, which implies IS NOT NULL. Each outbox insert then
                -- updates three indexes, not five.
                DROP INDEX outbox_by_recipient_time;
                CREATE INDEX outbox_by_recipient_time ON outbox_messages (to_address, created_at)
                    WHERE delivery_status = 'relayed';
                DROP INDEX outbox_by_forwarding;
                CREATE INDEX outbox_by_forwarding ON outbox_messages (project_id, forwarded_to, id)
                    WHERE forwarded_to IS NOT NULL;
                """),
            Migration(
            version: 17, name: "fake password hashes without the repeated salt",
            sql: """
                -- The emulator's own hash, `fakeHash:salt=<salt>:password=<password>`, repeats the salt
                -- column: such a hash is kept as the password alone (about 50 bytes less per user) and
                -- read back as the same string. `=` compares bytes, so only an exact prefix moves.
                ALTER TABLE users ADD COLUMN fake_password TEXT;
                UPDATE users
                SET fake_password = substr(password_hash, length('fakeHash:salt=' || salt || ':password=') + 1),
                    password_hash = NULL
                WHERE password_hash IS NOT NULL AND salt IS NOT NULL
                    AND substr(password_hash, 1, length('fakeHash:salt=' || salt || ':password='))
                        = 'fakeHash:salt=' || salt || ':password=';
                """),
            Migration(
            version: 23, name: "refresh-token digests of 16 bytes",
            sql: """
                -- A token is found by the first 16 bytes of its SHA-256 (RefreshTokenRepository.digest):
                -- 16 bytes less per token. The index holds the first 8, which do not change.
                UPDATE refresh_tokens SET token_sha256 = substr(token_sha256, 1, 16) WHERE length(token_sha256) > 16;
                """),
            Migration(
            version: 24, name: "provider links kept in their key's b-tree",
            sql: """
                -- A link is written and read by its key (project, tenant, user, provider) or by its
                -- identity: kept in its key's own b-tree (WITHOUT ROWID), it is one b-tree entry to
                -- write instead of two, one search to read instead of two, and the identity index
                -- holds the user's id itself. The same columns, constraints and indexes as before.
                CREATE TABLE provider_links_by_key (
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    raw_id TEXT NOT NULL,
                    federated_id TEXT,
                    email TEXT,
                    display_name TEXT,
                    photo_url TEXT,
                    screen_name TEXT,
                    phone_number TEXT,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (project_id, tenant_id, local_id, provider_id),
                    FOREIGN KEY (project_id, tenant_id, local_id)
                        REFERENCES users (project_id, tenant_id, local_id) ON DELETE CASCADE
                ) WITHOUT ROWID;
                INSERT INTO provider_links_by_key (project_id, tenant_id, local_id, provider_id, raw_id, federated_id,
                    email, display_name, photo_url, screen_name, phone_number, position)
                SELECT project_id, tenant_id, local_id, provider_id, raw_id, federated_id,
                    email, display_name, photo_url, screen_name, phone_number, position
                FROM provider_links;
                DROP TABLE provider_links;
                ALTER TABLE provider_links_by_key RENAME TO provider_links;
                CREATE UNIQUE INDEX provider_links_by_identity ON provider_links (project_id, tenant_id, provider_id, raw_id);
                CREATE INDEX provider_links_by_email ON provider_links (project_id, tenant_id, email);
                """),
            // Numbered apart from its neighbours' steps: it touches only refresh_tokens.
            Migration(
            version: 25, name: "refresh tokens kept in their digest's b-tree",
            sql: """
                -- A token is written once and read by its digest: kept in the digest's own b-tree
                -- (WITHOUT ROWID), it is two b-tree entries to write instead of three (rows, digest
                -- index, scope index), one search to read instead of two. The same columns but the
                -- rowid; the digest becomes the key. A 128-bit collision between two tokens' digests
                -- keeps the older token, the one a lookup found before.
                CREATE TABLE refresh_tokens_keyed (
                    token_sha256 BLOB NOT NULL PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    tenant_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    sign_in_provider TEXT NOT NULL,
                    extra_claims TEXT,
                    second_factor TEXT,
                    issued_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO refresh_tokens_keyed (token_sha256, project_id, tenant_id, local_id,
                    sign_in_provider, extra_claims, second_factor, issued_at)
                SELECT token_sha256, project_id, tenant_id, local_id, sign_in_provider, extra_claims, second_factor,
                    issued_at
                FROM refresh_tokens ORDER BY id;
                DROP TABLE refresh_tokens;
                ALTER TABLE refresh_tokens_keyed RENAME TO refresh_tokens;
                -- Clearing a project or tenant deletes its tokens.
                CREATE INDEX refresh_tokens_by_scope ON refresh_tokens (project_id, tenant_id);
                """),
            // Numbered apart from its neighbours' steps: it touches only oob_codes.
            Migration(
            version: 26, name: "oob codes without the scope index",
            sql: """
                -- Codes are written and used (read, deleted) by the code alone. Only the `oobCodes`
                -- listing reads a scope's codes, every unused one, oldest first: it reads the table
                -- and sorts instead, and every sendOobCode and every use writes one b-tree less.
                DROP INDEX oob_codes_by_scope;
                """),
            Migration(
            version: 27, name: "users by creation time",
            sql: """
                -- The console lists a scope's users newest first, a page at a time, and accounts:query
                -- sorts by CREATED_AT: in this index's order both read one page instead of sorting
                -- every user of the scope (the console's first page took ~1 s at 1M users). Ties in
                -- created_at (a batch import shares one millisecond) are ordered by local_id.
                CREATE INDEX users_by_creation ON users (project_id, tenant_id, created_at, local_id);
                """),
            Migration(
            version: 28, name: "Apple access tokens revoked",
            sql: """
                -- The JS SDK's revokeAccessToken revokes Apple's OAuth access token (tokenType
                -- ACCESS_TOKEN), the Apple SDK an authorization code; `code` holds either token.
                ALTER TABLE apple_revocations ADD COLUMN token_type TEXT NOT NULL DEFAULT 'CODE';
                """),
    ]
}
