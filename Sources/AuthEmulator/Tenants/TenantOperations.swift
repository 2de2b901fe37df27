import JSON

/// v2 `projects/{p}/tenants[/{t}]` (reference §11.4): create with a generated id, get (an id never
/// seen is created with the implicit all-enabled defaults, as the reference does), list with
/// paging, patch with `updateMask`, delete (with the tenant's users). A deleted tenant answers
/// `TENANT_NOT_FOUND` to get, patch and delete, as production does (the reference recreates it).
enum TenantOperations {
    static func create(_ request: OperationRequest) throws -> JSONObject {
        let body = TenantConfig.settable(from: request.body.object)
        try TenantValidation.validate(body)
        let tenant = TenantConfig(tenantId: request.environment.identifiers.alphanumeric(28), document: TenantConfig.filled(body))
        let projectId = request.scope.projectId
        try request.write { transaction in
            try transaction.store.tenants.insert(tenant, projectId: projectId)
            transaction.environment.tenantConfigs.changed(
                UserScope(projectId: projectId, tenantId: tenant.tenantId), to: tenant, store: transaction.store)
        }
        return tenant.json(projectId: projectId)
    }

    static func get(_ request: OperationRequest) throws -> JSONObject {
        let tenantId = try requireTenant(request)
        let projectId = request.scope.projectId
        let stored = try request.read { try $0.store.tenants.stored(tenantId, projectId: projectId) }
        switch stored {
        case .live(let tenant): return tenant.json(projectId: projectId)
        case .deleted: throw AuthError.invalid("TENANT_NOT_FOUND")
        case .neverSeen:
            // Written only on this first read, so that the list shows it (the reference's implicit creation).
            let tenant = TenantConfig.implicit(tenantId)
            return try request.write { transaction in
                try transaction.store.tenants.insertIfNeverSeen(tenant, projectId: projectId)
                return try existing(tenantId, in: transaction)
            }.json(projectId: projectId)
        }
    }

    /// `pageSize` 20 when absent or 0, at most 1000, negative = all; `pageToken` = the last id seen.
    static func list(_ request: OperationRequest) throws -> JSONObject {
        var pageSize = 20
        if let text = request.queryValue("pageSize"), !text.isEmpty {
            guard let value = Int(text) else { throw AuthError.invalidArgument("/pageSize must be integer") }
            pageSize = value == 0 ? 20 : value
        }
        let limit: Int? = pageSize < 0 ? nil : min(pageSize, 1000)
        let token = request.queryValue("pageToken").flatMap { $0.isEmpty ? nil : $0 }
        let projectId = request.scope.projectId
        let tenants = try request.read { try $0.store.tenants.list(projectId: projectId, after: token, limit: limit) }
        var response: JSONObject = ["tenants": .array(tenants.map { .object($0.json(projectId: projectId)) })]
        if let limit, tenants.count == limit, let last = tenants.last { response["nextPageToken"] = .string(last.tenantId) }
        return response
    }

    static func patch(_ request: OperationRequest) throws -> JSONObject {
        let tenantId = try requireTenant(request)
        let body = TenantConfig.settable(from: request.body.object)
        try TenantValidation.validate(body)
        let paths = ConfigDocument.maskPaths(request.queryValue("updateMask"))
        let projectId = request.scope.projectId
        return try request.write { transaction in
            let current = try existing(tenantId, in: transaction)
            let document = paths.isEmpty
                ? TenantConfig.filled(body) : ConfigDocument.merge(body, into: current.document, paths: paths)
            try TenantValidation.validate(document)
            let updated = TenantConfig(tenantId: tenantId, document: document)
            try transaction.store.tenants.save(updated, projectId: projectId)
            transaction.environment.tenantConfigs.changed(transaction.scope, to: updated, store: transaction.store)
            return updated.json(projectId: projectId)
        }
    }

    static func delete(_ request: OperationRequest) throws -> JSONObject {
        let tenantId = try requireTenant(request)
        try request.write { transaction in
            _ = try existing(tenantId, in: transaction)
            try transaction.store.tenants.markDeleted(tenantId, projectId: transaction.scope.projectId, at: transaction.now)
            transaction.environment.tenantConfigs.changed(transaction.scope, to: nil, store: transaction.store)
        }
        // Its users go in steps once it answers TENANT_NOT_FOUND, so no request can add one meanwhile.
        try request.environment.store.deleteAllUsers(in: request.scope)
        return [:]
    }

    /// The stored tenant, or the implicit one for an id never seen; `TENANT_NOT_FOUND` once deleted.
    private static func existing(_ tenantId: String, in transaction: AccountsTransaction) throws -> TenantConfig {
        switch try transaction.store.tenants.stored(tenantId, projectId: transaction.scope.projectId) {
        case .live(let tenant): return tenant
        case .deleted: throw AuthError.invalid("TENANT_NOT_FOUND")
        case .neverSeen: return .implicit(tenantId)
        }
    }

    private static func requireTenant(_ request: OperationRequest) throws(AuthError) -> String {
        guard let tenantId = request.scope.tenantId, !tenantId.isEmpty else { throw AuthError.invalid("MISSING_TENANT_ID") }
        return tenantId
    }
}
