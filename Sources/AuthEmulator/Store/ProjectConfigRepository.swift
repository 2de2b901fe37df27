import JSON
import SQLiteStore

/// The per-project settings (reference §11.2), kept as the v2 config document
/// (`signIn`, `mfa`, `emailPrivacyConfig`, `blockingFunctions`) that `projects/{p}/config` reads
/// and patches. The typed properties are views into it.
public struct ProjectConfig: Sendable, Equatable {
    public var document: JSONObject {
        didSet { (signInSettings, functionURIs) = Self.derive(from: document) }
    }
    // Read from the document once per change rather than on every request.
    /// The `signIn` switches.
    private(set) var signInSettings: SignInSettings
    /// `blockingFunctions.triggers.<event>.functionUri` of each configured trigger.
    private(set) var functionURIs: [BlockingTrigger: String]

    public init(document: JSONObject = JSONObject()) {
        self.document = document
        (signInSettings, functionURIs) = Self.derive(from: document)
    }

    private static func derive(from document: JSONObject) -> (SignInSettings, [BlockingTrigger: String]) {
        var functionURIs: [BlockingTrigger: String] = [:]
        for trigger in BlockingTrigger.allCases {
            functionURIs[trigger] = ConfigDocument.string("blockingFunctions.triggers.\(trigger.rawValue).functionUri", in: document)
        }
        return (SignInSettings(projectDocument: document), functionURIs)
    }

    public init(allowDuplicateEmails: Bool = false, improvedEmailPrivacy: Bool = false, testPhoneNumbers: [String: String] = [:]) {
        self.init()
        self.allowDuplicateEmails = allowDuplicateEmails
        self.improvedEmailPrivacy = improvedEmailPrivacy
        self.testPhoneNumbers = testPhoneNumbers
    }

    public var allowDuplicateEmails: Bool {
        get { ConfigDocument.bool("signIn.allowDuplicateEmails", in: document) ?? false }
        set { ConfigDocument.set(.bool(newValue), at: ["signIn", "allowDuplicateEmails"], in: &document) }
    }

    public var improvedEmailPrivacy: Bool {
        get { ConfigDocument.bool("emailPrivacyConfig.enableImprovedEmailPrivacy", in: document) ?? false }
        set { ConfigDocument.set(.bool(newValue), at: ["emailPrivacyConfig", "enableImprovedEmailPrivacy"], in: &document) }
    }

    /// Fictional numbers and their fixed codes (production's `signIn.phoneNumber.testPhoneNumbers`):
    /// no SMS is sent to them, and the code is always the one given.
    public var testPhoneNumbers: [String: String] {
        get {
            var numbers: [String: String] = [:]
            for (number, code) in ConfigDocument.object("signIn.phoneNumber.testPhoneNumbers", in: document)?.members ?? [] {
                if let code = code.stringValue { numbers[number] = code }
            }
            return numbers
        }
        set {
            var numbers = JSONObject()
            for number in newValue.keys.sorted() { numbers[number] = .string(newValue[number]!) }
            ConfigDocument.set(
                newValue.isEmpty ? nil : .object(numbers), at: ["signIn", "phoneNumber", "testPhoneNumbers"], in: &document)
        }
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
            let row = try connection.queryFirst("SELECT config FROM project_config WHERE project_id = ?", [.text(projectId)]),
            let document = row[0].text.flatMap({ try? JSONValue(parsing: $0).objectValue })
        else { return ProjectConfig() }
        return ProjectConfig(document: document)
    }

    /// A reset's: the target's settings are the defaults again.
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "project_config", of: target)
    }

    func save(_ config: ProjectConfig, for projectId: String) throws {
        try connection.execute(
            """
            INSERT INTO project_config (project_id, config) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET config = excluded.config
            """,
            [.text(projectId), .text(config.document.compactString)])
    }
}

/// Project settings kept in memory after the first read, so sign-ins do not query them every
/// time. A change updates the cache once its transaction has committed.
final class ProjectConfigCache: Sendable {
    private let configs = Locked<[String: ProjectConfig]>([:])

    func config(for projectId: String, store: StoreTransaction) throws -> ProjectConfig {
        if let cached = cached(projectId) { return cached }
        let config = try store.projectConfigs.config(for: projectId)
        configs.withLock { $0[projectId] = config }
        return config
    }

    /// The cached settings, without touching the store: `nil` until first read.
    func cached(_ projectId: String) -> ProjectConfig? {
        configs.withLock { $0[projectId] }
    }

    /// Saves `config` in this transaction and caches it once committed.
    func save(_ config: ProjectConfig, for projectId: String, store: StoreTransaction) throws {
        try store.projectConfigs.save(config, for: projectId)
        store.connection.afterCommit { [configs] in configs.withLock { $0[projectId] = config } }
    }

    /// Drops what a committed reset cleared: the next read finds the defaults in the store.
    func forget(_ target: ResetTarget) {
        configs.withLock { $0 = $0.filter { !target.includes($0.key) } }
    }
}
