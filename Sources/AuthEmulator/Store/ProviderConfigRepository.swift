import JSON
import SQLiteStore

/// Per-project (or tenant) provider settings, stored as the JSON document the v2 API exchanges
/// (`defaultSupportedIdpConfigs`): one document per provider.
struct ProviderConfigRepository {
    let connection: SQLiteConnection

    func config(_ providerId: String, in scope: UserScope) throws -> JSONObject? {
        let row = try connection.queryFirst(
            "SELECT config FROM idp_configs WHERE project_id = ? AND tenant_id = ? AND provider_id = ?",
            [.text(scope.projectId), .text(scope.tenantKey), .text(providerId)])
        return row?[0].text.flatMap { try? JSONValue(parsing: $0).objectValue }
    }

    func configs(in scope: UserScope) throws -> [(providerId: String, config: JSONObject)] {
        try connection.query(
            "SELECT provider_id, config FROM idp_configs WHERE project_id = ? AND tenant_id = ? ORDER BY provider_id",
            [.text(scope.projectId), .text(scope.tenantKey)]
        ).map { row in
            (row[0].text ?? "", row[1].text.flatMap { try? JSONValue(parsing: $0).objectValue } ?? JSONObject())
        }
    }

    /// Inserts; false when the provider already has a config here.
    func insert(_ config: JSONObject, for providerId: String, in scope: UserScope) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO idp_configs (project_id, tenant_id, provider_id, config) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """, [.text(scope.projectId), .text(scope.tenantKey), .text(providerId), .text(config.compactString)])
        return connection.changes == 1
    }

    func replace(_ config: JSONObject, for providerId: String, in scope: UserScope) throws {
        try connection.execute(
            "UPDATE idp_configs SET config = ? WHERE project_id = ? AND tenant_id = ? AND provider_id = ?",
            [.text(config.compactString), .text(scope.projectId), .text(scope.tenantKey), .text(providerId)])
    }

    /// A reset's: every provider config of the target, its tenants' too.
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "idp_configs", of: target)
    }

    func delete(_ providerId: String, in scope: UserScope) throws -> Bool {
        try connection.execute(
            "DELETE FROM idp_configs WHERE project_id = ? AND tenant_id = ? AND provider_id = ?",
            [.text(scope.projectId), .text(scope.tenantKey), .text(providerId)])
        return connection.changes == 1
    }
}
