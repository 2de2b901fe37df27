import JSON

/// The resets a test suite calls between tests (DESIGN §3). `DELETE …/accounts` stays what it
/// always was (`EmulatorOperations.deleteAccounts`); these return projects to a fresh start.
enum EmulatorReset {
    /// `POST /emulator/v1/projects/{p}:reset`.
    static func resetProject(_ request: OperationRequest) throws -> JSONObject {
        try ProjectReset(.project(request.scope.projectId), environment: request.environment).run()
        return [:]
    }

    /// `POST /emulator/v1/reset`: every project, then the clock back to real time.
    static func resetEverything(_ request: OperationRequest) throws -> JSONObject {
        try ProjectReset(.everyProject, environment: request.environment).run()
        // The clock saves its offset in a write of its own, so it is reset after the store's.
        try request.environment.clock.reset()
        return [:]
    }
}

/// Clears every piece of state a project owns, in one write transaction, then, once committed,
/// the caches and waiters that hold it in memory. The fake providers' keys, accounts, access
/// tokens, authorization codes and relay addresses belong to the providers, shared by every
/// project: they stay, so tokens minted before a reset still verify.
struct ProjectReset {
    let target: ResetTarget
    let environment: AuthEnvironment

    init(_ target: ResetTarget, environment: AuthEnvironment) {
        self.target = target
        self.environment = environment
    }

    func run() throws {
        try environment.store.write { store in
            try deleteUsers(store)
            try store.refreshTokens.deleteAll(target)
            try store.tenants.deleteAll(target)
            try store.oobCodes.deleteAll(target)
            try store.verificationSessions.deleteAll(target)
            try store.outbox.deleteAll(target)
            try store.outbox.deleteRelaySettings(target)
            try store.projectConfigs.deleteAll(target)
            try store.providerConfigs.deleteAll(target)
            try store.fakeProviders.deleteRevocations(target)
            store.connection.afterCommit { [target, environment] in
                environment.projectConfigs.forget(target)
                environment.tenantConfigs.forget(target)
                environment.providerAudiences.invalidate()
                environment.outboxWaiters.endWaits(of: target)
            }
        }
    }

    /// Users of the project and of each of its tenants, as `DELETE …/accounts` removes them.
    private func deleteUsers(_ store: StoreTransaction) throws {
        let projectIds: [String]
        switch target {
        case .project(let id): projectIds = [id]
        case .everyProject: projectIds = try store.users.projectIds()
        }
        for projectId in projectIds {
            for tenantKey in try store.users.tenantKeys(projectId: projectId) {
                try store.users.deleteAll(in: UserScope(projectId: projectId, tenantId: tenantKey.isEmpty ? nil : tenantKey))
            }
        }
    }
}
