import JSON
import SQLiteStore

/// The per-project settings the emulator lets a test change (reference §11.2).
public struct ProjectConfig: Sendable, Equatable {
    public var allowDuplicateEmails = false
    public var improvedEmailPrivacy = false
    /// Fictional numbers and their fixed codes (production's `signIn.phoneNumber.testPhoneNumbers`):
    /// no SMS is sent to them, and the code is always the one given.
    public var testPhoneNumbers: [String: String] = [:]

    public init(allowDuplicateEmails: Bool = false, improvedEmailPrivacy: Bool = false, testPhoneNumbers: [String: String] = [:]) {
        self.allowDuplicateEmails = allowDuplicateEmails
        self.improvedEmailPrivacy = improvedEmailPrivacy
        self.testPhoneNumbers = testPhoneNumbers
    }

    /// The emulator view: `{signIn:{allowDuplicateEmails, phoneNumber:{testPhoneNumbers}}, emailPrivacyConfig:{enableImprovedEmailPrivacy}}`.
    var emulatorJSON: JSONObject {
        var signIn: JSONObject = ["allowDuplicateEmails": .bool(allowDuplicateEmails)]
        if !testPhoneNumbers.isEmpty { signIn["phoneNumber"] = ["testPhoneNumbers": .object(testPhoneNumbersJSON)] }
        return ["signIn": .object(signIn), "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(improvedEmailPrivacy)]]
    }

    var testPhoneNumbersJSON: JSONObject {
        var numbers = JSONObject()
        for number in testPhoneNumbers.keys.sorted() { numbers[number] = .string(testPhoneNumbers[number]!) }
        return numbers
    }
}

struct ProjectConfigRepository {
    let connection: SQLiteConnection

    func config(for projectId: String) throws -> ProjectConfig {
        guard
            let row = try connection.queryFirst(
                "SELECT allow_duplicate_emails, improved_email_privacy, test_phone_numbers FROM project_config WHERE project_id = ?",
                [.text(projectId)])
        else { return ProjectConfig() }
        var numbers: [String: String] = [:]
        for (number, code) in row[2].text.flatMap({ try? JSONValue(parsing: $0).objectValue })?.members ?? [] {
            numbers[number] = code.stringValue
        }
        return ProjectConfig(
            allowDuplicateEmails: row[0].bool ?? false, improvedEmailPrivacy: row[1].bool ?? false, testPhoneNumbers: numbers)
    }

    func save(_ config: ProjectConfig, for projectId: String) throws {
        try connection.execute(
            """
            INSERT INTO project_config (project_id, allow_duplicate_emails, improved_email_privacy, test_phone_numbers)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (project_id) DO UPDATE SET
                allow_duplicate_emails = excluded.allow_duplicate_emails,
                improved_email_privacy = excluded.improved_email_privacy,
                test_phone_numbers = excluded.test_phone_numbers
            """,
            [
                .text(projectId), SQLiteValue(config.allowDuplicateEmails), SQLiteValue(config.improvedEmailPrivacy),
                config.testPhoneNumbers.isEmpty ? .null : .text(config.testPhoneNumbersJSON.compactString),
            ])
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
