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
    ]
}
