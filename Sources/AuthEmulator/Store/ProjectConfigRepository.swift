import JSON
import SQLiteStore

/// The per-project settings the emulator lets a test change (reference §11.2).
public struct ProjectConfig: Sendable, Equatable {
    public var allowDuplicateEmails = false
    public var improvedEmailPrivacy = false

    public init(allowDuplicateEmails: Bool = false, improvedEmailPrivacy: Bool = false) {
        self.allowDuplicateEmails = allowDuplicateEmails
        self.improvedEmailPrivacy = improvedEmailPrivacy
    }

    /// The emulator view: `{signIn:{allowDuplicateEmails}, emailPrivacyConfig:{enableImprovedEmailPrivacy}}`.
    var emulatorJSON: JSONObject {
        [
            "signIn": ["allowDuplicateEmails": .bool(allowDuplicateEmails)],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(improvedEmailPrivacy)],
        ]
    }
}

struct ProjectConfigRepository {
    let connection: SQLiteConnection

    func config(for projectId: String) throws -> ProjectConfig {
        guard
            let row = try connection.queryFirst(
                "SELECT allow_duplicate_emails, improved_email_privacy FROM project_config WHERE project_id = ?",
                [.text(projectId)])
        else { return ProjectConfig() }
        return ProjectConfig(
            allowDuplicateEmails: row["allow_duplicate_emails"].bool ?? false,
            improvedEmailPrivacy: row["improved_email_privacy"].bool ?? false)
    }

    func save(_ config: ProjectConfig, for projectId: String) throws {
        try connection.execute(
            """
            INSERT INTO project_config (project_id, allow_duplicate_emails, improved_email_privacy) VALUES (?, ?, ?)
            ON CONFLICT (project_id) DO UPDATE SET
                allow_duplicate_emails = excluded.allow_duplicate_emails,
                improved_email_privacy = excluded.improved_email_privacy
            """, [.text(projectId), SQLiteValue(config.allowDuplicateEmails), SQLiteValue(config.improvedEmailPrivacy)])
    }
}

/// Project settings kept in memory after the first read, so sign-ins do not query them every
/// time. A change updates the cache once its transaction has committed.
final class ProjectConfigCache: Sendable {
    private let configs = Locked<[String: ProjectConfig]>([:])

    func config(for projectId: String, store: StoreTransaction) throws -> ProjectConfig {
        if let cached = configs.withLock({ $0[projectId] }) { return cached }
        let config = try store.projectConfigs.config(for: projectId)
        configs.withLock { $0[projectId] = config }
        return config
    }

    /// Saves `config` in this transaction and caches it once committed.
    func save(_ config: ProjectConfig, for projectId: String, store: StoreTransaction) throws {
        try store.projectConfigs.save(config, for: projectId)
        store.connection.afterCommit { [configs] in configs.withLock { $0[projectId] = config } }
    }
}
