import JSON

/// Runs a request's blocking functions in the three steps of DESIGN §4.1: the operation's draft
/// of the user in a read transaction, the calls with no lock held, and (by the operation) a
/// re-check and `apply` in its write transaction.
enum BlockingFunctions {
    /// The update to apply in the write, or `nil` when no function runs (no trigger configured,
    /// an admin request, or `draft` declining with `nil`, e.g. while MFA is pending).
    static func run(
        _ request: OperationRequest, _ triggers: [BlockingTrigger], signInMethod: String,
        draft: (AccountsTransaction) throws -> UserRecord?
    ) throws -> BlockingUpdate? {
        try run(request, triggers, signInMethod: signInMethod) { transaction in
            try draft(transaction).map { BlockingDraft(user: $0, isNew: triggers.contains(.beforeCreate)) }
        }
    }

    /// As above, for operations that learn only in the draft whether they create the user:
    /// `beforeCreate` runs only for a new one.
    /// `inbound` (provider sign-in): `rawUserInfo`, and the `idToken`/`accessToken`/`refreshToken`
    /// that `forwardInboundCredentials` says to pass on as `oauth_id_token`, ….
    static func run(
        _ request: OperationRequest, _ triggers: [BlockingTrigger], signInMethod: String,
        inbound: InboundCredentials = InboundCredentials(), draft: (AccountsTransaction) throws -> BlockingDraft?
    ) throws -> BlockingUpdate? {
        guard !request.isPrivileged, !triggers.isEmpty else { return nil }
        let environment = request.environment
        let projectId = request.scope.projectId
        let config = try environment.projectConfigs.cached(projectId) ?? request.read { try $0.config() }
        let configured = triggers.compactMap { trigger in config.functionUri(for: trigger).map { (trigger, $0) } }
        guard !configured.isEmpty, let drafted = try request.read(draft) else { return nil }
        var user = drafted.user
        let calls = configured.filter { $0.0 != .beforeCreate || drafted.isNew }
        var update = BlockingUpdate()
        for (trigger, uri) in calls {
            let event = BlockingEvent(
                trigger: trigger, functionUri: uri, scope: user.scope, user: user, signInMethod: signInMethod,
                now: environment.clock.now(),
                eventId: environment.identifiers.alphanumeric(16), providerClaims: inbound.claims(forwarding: config))
            let answer = try BlockingFunctionClient.call(event)
            try answer.apply(to: &user)
            update = update.followed(by: answer)
        }
        return update
    }
}

extension BlockingFunctions {
    /// `beforeSendEmail` / `beforeSendSms`: asks the function before a message goes out, with no
    /// lock held (the caller's write comes after). `details` names the message (`email` and
    /// `email_type`, or `phone_number` and `sms_type`), or nil when none would go out; it is
    /// worked out only when a function is configured, so requests without one pay nothing for it.
    /// A refusal is the function's error.
    static func beforeSending(
        _ request: OperationRequest, _ trigger: BlockingTrigger, details: () throws -> JSONObject?
    ) throws {
        guard !request.isPrivileged else { return }
        let environment = request.environment
        let config = try environment.projectConfigs.cached(request.scope.projectId) ?? request.read { try $0.config() }
        guard let uri = config.functionUri(for: trigger), let details = try details() else { return }
        let event = BlockingEvent(
            trigger: trigger, functionUri: uri, scope: request.scope, user: nil, signInMethod: nil,
            now: environment.clock.now(), eventId: environment.identifiers.alphanumeric(16), providerClaims: details)
        _ = try BlockingFunctionClient.call(event)
    }
}

/// What a provider sign-in hands its functions besides the user.
struct InboundCredentials {
    var rawUserInfo: String?
    var idToken: String?
    var accessToken: String?
    var refreshToken: String?

    func claims(forwarding config: ProjectConfig) -> JSONObject {
        var claims = JSONObject()
        claims.setIfPresent("raw_user_info", rawUserInfo.map { .string($0) })
        let forward = ConfigDocument.object("blockingFunctions.forwardInboundCredentials", in: config.document) ?? JSONObject()
        for (key, claim, value) in [
            ("idToken", "oauth_id_token", idToken), ("accessToken", "oauth_access_token", accessToken),
            ("refreshToken", "oauth_refresh_token", refreshToken),
        ] where forward[key]?.boolValue == true {
            claims.setIfPresent(claim, value.map { .string($0) })
        }
        return claims
    }
}

/// The user an operation is about to write, and whether it is new.
struct BlockingDraft {
    var user: UserRecord
    var isNew: Bool
}

extension ProjectConfig {
    /// `blockingFunctions.triggers.<event>.functionUri` (tenants use their project's).
    func functionUri(for trigger: BlockingTrigger) -> String? {
        functionURIs[trigger]
    }
}

extension Optional where Wrapped == BlockingUpdate {
    /// Step 3, inside the write: applies the function's changes to the re-read user.
    func apply(to user: inout UserRecord) throws(AuthError) {
        try self?.apply(to: &user)
    }

    var sessionClaims: JSONObject? { self?.sessionClaims }
}

/// For an operation that decides and writes in one function (signInWithIdp): run once to
/// `draft` (hand over the user, write nothing), then again to `apply` the functions' answer.
enum BlockingStage {
    case draft((BlockingDraft) -> Void)
    case apply(BlockingUpdate?)

    /// In the draft, records the user (unless a second factor is pending) and says stop.
    func stops(at user: inout UserRecord, isNew: Bool, in transaction: AccountsTransaction) throws -> Bool {
        switch self {
        case .draft(let record):
            if !(try transaction.enforcesSecondFactors && !user.mfaEnrollments.isEmpty) {
                record(BlockingDraft(user: user, isNew: isNew))
            }
            return true
        case .apply(let update):
            try update.apply(to: &user)
            return false
        }
    }

    var sessionClaims: JSONObject? {
        if case .apply(let update) = self { return update?.sessionClaims }
        return nil
    }
}
