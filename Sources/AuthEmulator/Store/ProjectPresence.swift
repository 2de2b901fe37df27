extension StoreTransaction {
    /// Whether the store holds anything of `projectId`: users, mail, codes, tenants or settings.
    /// Each probe reads one entry of an index (or a key) that starts with the project.
    func holdsState(of projectId: String) throws -> Bool {
        let tables = ["users", "outbox_messages", "tenants", "project_config", "idp_configs", "relay_senders", "verification_sessions"]
        let probes = tables.map { "EXISTS (SELECT 1 FROM \($0) WHERE project_id = ?1)" }.joined(separator: " OR ")
        return try connection.queryFirst("SELECT \(probes)", [.text(projectId)])?[0].integer == 1
    }
}
