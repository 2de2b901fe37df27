import JSON
import SQLiteStore

/// The simulated Apple relay's settings for one project (DESIGN §2.4): who is registered to send,
/// which domains fail SPF, and how much one relay address takes in a day.
struct RelaySettings: Sendable, Equatable {
    /// Addresses and whole domains (`@example.com`).
    var registeredSenders: [String]
    /// Domains whose SPF check is simulated as failing, so their mail bounces even when registered.
    var spfFailingDomains: [String] = []
    /// Messages one relay address forwards per (emulator) day; ESPs quote 100.
    var dailyLimit = RelaySettings.defaultDailyLimit

    static let defaultDailyLimit = 100

    /// Whether `sender` is registered, by address or by its domain.
    func isRegistered(_ sender: String) -> Bool {
        let address = sender.lowercased()
        let domain = EmailAddress.domain(of: address).map { "@\($0)" }
        return registeredSenders.contains { entry in
            let entry = entry.lowercased()
            return entry == address || entry == domain
        }
    }

    func failsSPF(_ sender: String) -> Bool {
        guard let domain = EmailAddress.domain(of: sender.lowercased()) else { return false }
        return spfFailingDomains.contains { $0.lowercased() == domain }
    }
}

extension OutboxRepository {
    func relaySettings(projectId: String) throws -> RelaySettings {
        guard let row = try connection.queryFirst(
            "SELECT senders, spf_failing_domains, daily_limit FROM relay_senders WHERE project_id = ?", [.text(projectId)])
        else { return RelaySettings(registeredSenders: [EmailSender.defaultAddress(projectId: projectId)]) }
        func strings(_ text: String?) -> [String] {
            text.flatMap { try? JSONValue(parsing: $0).arrayValue?.compactMap(\.stringValue) } ?? []
        }
        return RelaySettings(
            registeredSenders: strings(row[0].text), spfFailingDomains: strings(row[1].text),
            dailyLimit: row[2].integer.map { Int($0) } ?? RelaySettings.defaultDailyLimit)
    }

    func setRelaySettings(_ settings: RelaySettings, projectId: String) throws {
        func text(_ strings: [String]) -> SQLiteValue { .text(JSONValue.array(strings.map { .string($0) }).compactString) }
        try connection.execute(
            """
            INSERT INTO relay_senders (project_id, senders, spf_failing_domains, daily_limit) VALUES (?, ?, ?, ?)
            ON CONFLICT (project_id) DO UPDATE SET senders = excluded.senders,
                spf_failing_domains = excluded.spf_failing_domains, daily_limit = excluded.daily_limit
            """,
            [.text(projectId), text(settings.registeredSenders), text(settings.spfFailingDomains),
             .integer(Int64(settings.dailyLimit))])
    }

    /// A reset's: the target's relay settings are the defaults again.
    func deleteRelaySettings(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "relay_senders", of: target)
    }

    /// Messages the relay forwarded to `address` since `start`, for the daily limit.
    func relayedCount(to address: String, since start: Instant) throws -> Int {
        let count = try connection.queryFirst(
            """
            SELECT COUNT(*) FROM outbox_messages
            WHERE to_address IN (?, ?) AND created_at > ? AND delivery_status = 'relayed'
            """,
            [.text(address), .text(address.lowercased()), .integer(start.millisecondsSinceEpoch)])?[0].integer
        return Int(count ?? 0)
    }

    func insertRawSource(_ raw: [UInt8]) throws -> Int64 {
        try connection.execute("INSERT INTO smtp_sources (raw) VALUES (?)", [.blob(raw)])
        return try connection.queryFirst("SELECT last_insert_rowid()")?[0].integer ?? 0
    }

    func rawSource(id: Int64) throws -> [UInt8]? {
        try connection.queryFirst("SELECT raw FROM smtp_sources WHERE id = ?", [.integer(id)])?[0].blob
    }

    /// Drops raw sources no message refers to any more.
    func deleteUnreferencedRawSources() throws {
        try connection.execute(
            "DELETE FROM smtp_sources WHERE id NOT IN (SELECT raw_source_id FROM outbox_messages WHERE raw_source_id IS NOT NULL)")
    }
}
