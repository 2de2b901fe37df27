import JSON
import SQLiteStore

/// Whether a tenant id was ever created (explicitly, or implicitly by a GET), and whether it was
/// deleted since.
enum StoredTenant {
    case live(TenantConfig)
    case deleted
    case neverSeen
}

/// The `tenants` table: one JSON config document per (project, tenant); a deleted tenant keeps a
/// marked row.
struct TenantRepository {
    let connection: SQLiteConnection

    /// The live tenant, or `nil` when it was never stored or was deleted.
    func tenant(_ tenantId: String, projectId: String) throws -> TenantConfig? {
        guard case .live(let tenant) = try stored(tenantId, projectId: projectId) else { return nil }
        return tenant
    }

    func stored(_ tenantId: String, projectId: String) throws -> StoredTenant {
        guard
            let row = try connection.queryFirst(
                "SELECT config, deleted_at FROM tenants WHERE project_id = ? AND tenant_id = ?",
                [.text(projectId), .text(tenantId)])
        else { return .neverSeen }
        if row[1].integer != nil { return .deleted }
        guard let document = row[0].text.flatMap({ try? JSONValue(parsing: $0).objectValue }) else { return .neverSeen }
        return .live(TenantConfig(tenantId: tenantId, document: document))
    }

    /// A plain INSERT: the primary key catches a collision.
    func insert(_ tenant: TenantConfig, projectId: String) throws {
        try connection.execute(
            "INSERT INTO tenants (project_id, tenant_id, config) VALUES (?, ?, ?)",
            [.text(projectId), .text(tenant.tenantId), .text(tenant.document.compactString)])
    }

    /// A GET's implicit creation: a row with `tenant`'s document unless one exists (live or deleted).
    func insertIfNeverSeen(_ tenant: TenantConfig, projectId: String) throws {
        try connection.execute(
            "INSERT INTO tenants (project_id, tenant_id, config) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(projectId), .text(tenant.tenantId), .text(tenant.document.compactString)])
    }

    func save(_ tenant: TenantConfig, projectId: String) throws {
        try connection.execute(
            """
            INSERT INTO tenants (project_id, tenant_id, config) VALUES (?, ?, ?)
            ON CONFLICT (project_id, tenant_id) DO UPDATE SET config = excluded.config, deleted_at = NULL
            """,
            [.text(projectId), .text(tenant.tenantId), .text(tenant.document.compactString)])
    }

    /// Tenants sorted by id, those after `after` only, at most `limit` (all when `nil`). A tenant
    /// that has users but no row is listed with its implicit defaults, as the reference's implicit
    /// creation would have made it.
    func list(projectId: String, after: String?, limit: Int?) throws -> [TenantConfig] {
        let project = SQLiteValue.text(projectId)
        let after = SQLiteValue.text(after ?? "")
        let rows = try connection.query(
            """
            SELECT tenant_id, config FROM tenants WHERE project_id = ? AND tenant_id > ? AND deleted_at IS NULL
            UNION ALL
            SELECT DISTINCT tenant_id, NULL FROM users
            WHERE project_id = ? AND tenant_id > ? AND tenant_id <> ''
                AND tenant_id NOT IN (SELECT tenant_id FROM tenants WHERE project_id = ?)
            ORDER BY tenant_id LIMIT ?
            """,
            [project, after, project, after, project, .integer(Int64(limit ?? -1))])
        return rows.compactMap { row in
            guard let id = row[0].text else { return nil }
            guard let text = row[1].text else { return .implicit(id) }
            return (try? JSONValue(parsing: text).objectValue).map { TenantConfig(tenantId: id, document: $0) }
        }
    }

    /// A reset's: the target's tenants and the marks of deleted ones, so every id reads as never seen.
    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "tenants", of: target)
    }

    /// Marks the tenant deleted (a row is written for one that was only implicit); its document is dropped.
    func markDeleted(_ tenantId: String, projectId: String, at time: Instant) throws {
        try connection.execute(
            """
            INSERT INTO tenants (project_id, tenant_id, config, deleted_at) VALUES (?, ?, '{}', ?)
            ON CONFLICT (project_id, tenant_id) DO UPDATE SET config = '{}', deleted_at = excluded.deleted_at
            """,
            [.text(projectId), .text(tenantId), .integer(time.millisecondsSinceEpoch)])
    }
}

extension StoreTransaction {
    var tenants: TenantRepository { TenantRepository(connection: connection) }
}

/// Tenant settings kept in memory after the first read (sign-ins in a tenant read them on every
/// request); a change replaces the entry once its transaction commits.
final class TenantConfigCache: Sendable {
    private let configs = Locked<[UserScope: TenantConfig]>([:])

    /// The tenant of `scope`, or its implicit all-enabled defaults when it was never stored.
    func config(for scope: UserScope, store: StoreTransaction) throws -> TenantConfig? {
        guard let tenantId = scope.tenantId else { return nil }
        if let cached = configs.withLock({ $0[scope] }) { return cached }
        let config = try store.tenants.tenant(tenantId, projectId: scope.projectId) ?? .implicit(tenantId)
        configs.withLock { $0[scope] = config }
        return config
    }

    /// The cached tenant of `scope`, without touching the store: `nil` until first read.
    func cached(_ scope: UserScope) -> TenantConfig? {
        configs.withLock { $0[scope] }
    }

    /// Records that `scope`'s tenant changed (saved, or deleted with `nil`), once committed.
    func changed(_ scope: UserScope, to config: TenantConfig?, store: StoreTransaction) {
        store.connection.afterCommit { [configs] in configs.withLock { $0[scope] = config } }
    }

    /// Drops the tenants a committed reset cleared: the next read finds them never seen.
    func forget(_ target: ResetTarget) {
        configs.withLock { $0 = $0.filter { !target.includes($0.key.projectId) } }
    }
}
