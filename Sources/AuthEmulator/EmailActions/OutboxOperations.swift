import JSON

/// The outbox over HTTP (DESIGN §3): list, one message or the latest, wait for the next, delete,
/// and the project's senders registered with Apple's relay. Plus the official `oobCodes` list.
enum OutboxOperations {
    static let maximumWaitSeconds = 60.0
    /// Every `requestType` a message can have: the email actions and the SMS codes.
    static let messageTypes = Set(OobRequestType.allCases.map(\.rawValue) + ["PHONE_SIGN_IN", "MFA_ENROLLMENT", "MFA_SIGN_IN"])

    static func list(_ request: OperationRequest) throws -> OperationResult {
        let filter = try self.filter(request)
        return try answer(request, waitSeconds: try waitSeconds(request)) { messages in
            messages.isEmpty ? nil : .json(["messages": .array(messages.map { .object($0.json) })])
        } query: { store in
            try store.outbox.messages(projectId: request.scope.projectId, filter)
        } timedOut: {
            .json(["messages": []])
        }
    }

    /// `…/messages/{id}`; `latest` takes the list's filters (and may wait for one).
    static func get(_ request: OperationRequest) throws -> OperationResult {
        let id = request.pathParameters["messageId"] ?? ""
        let projectId = request.scope.projectId
        let notFound = AuthError(
            httpStatus: 404, message: "MESSAGE_NOT_FOUND : No message \(id) in the outbox of \(projectId).",
            reason: "notFound", status: "NOT_FOUND")
        let store = request.environment.store
        guard id == "latest" else {
            guard let number = Int64(id), let message = try store.read({ try $0.outbox.message(id: number, projectId: projectId) })
            else { throw notFound }
            return .json(try withRawSource(message, from: store))
        }
        var latest = try self.filter(request)
        latest.limit = 1
        let filter = latest
        return try answer(request, waitSeconds: try waitSeconds(request)) { messages in
            messages.first.flatMap { try? .json(withRawSource($0, from: store)) }
        } query: { store in
            try store.outbox.messages(projectId: projectId, filter)
        } timedOut: {
            ResponseRenderer.failure(notFound)
        }
    }

    /// One message with, for the app's own mail, its raw source (lists carry only `rawSize`).
    private static func withRawSource(_ message: OutboxMessage, from store: AuthStore) throws -> JSONObject {
        var json = message.json
        if let id = message.rawSourceId, let raw = try store.read({ try $0.outbox.rawSource(id: id) }) {
            json["raw"] = .string(String(decoding: raw, as: UTF8.self))
        }
        return json
    }

    static func deleteAll(_ request: OperationRequest) throws -> JSONObject {
        try request.environment.store.write { try $0.outbox.deleteAll(projectId: request.scope.projectId) }
        return [:]
    }

    static func privateRelay(_ request: OperationRequest) throws -> JSONObject {
        relayJSON(try request.environment.store.read { try $0.outbox.relaySettings(projectId: request.scope.projectId) })
    }

    /// Sets what the body names and keeps the rest: `registeredSenders` (addresses and
    /// `@domain` entries), `spfFailingDomains`, `dailyLimit`.
    static func updatePrivateRelay(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        let senders = try body.stringArray("registeredSenders")
        if let bad = senders?.first(where: { !(EmailAddress.isValid($0) || isDomainEntry($0)) }) {
            throw AuthError.invalid("INVALID_EMAIL : \(bad) is neither an email address nor a domain written @example.com.")
        }
        let spfFailing = try body.stringArray("spfFailingDomains")
        if let bad = spfFailing?.first(where: { $0.isEmpty || $0.contains("@") || $0.contains(" ") }) {
            throw AuthError.invalid("INVALID_ARGUMENT : spfFailingDomains holds domains such as example.com, not \(bad).")
        }
        var dailyLimit: Int?
        if let value = body.object["dailyLimit"] {
            guard let limit = value.int64Value, limit >= 0, limit <= 1_000_000 else {
                throw AuthError.invalid("INVALID_ARGUMENT : dailyLimit must be a whole number from 0 to 1000000.")
            }
            dailyLimit = Int(limit)
        }
        guard senders != nil || spfFailing != nil || dailyLimit != nil else {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : give registeredSenders (email addresses or @domains), spfFailingDomains or dailyLimit.")
        }
        let projectId = request.scope.projectId
        let updated = try request.environment.store.write { store in
            var settings = try store.outbox.relaySettings(projectId: projectId)
            if let senders { settings.registeredSenders = senders.map(EmailAddress.canonical) }
            if let spfFailing { settings.spfFailingDomains = spfFailing.map { $0.lowercased() } }
            if let dailyLimit { settings.dailyLimit = dailyLimit }
            try store.outbox.setRelaySettings(settings, projectId: projectId)
            return settings
        }
        return relayJSON(updated)
    }

    private static func isDomainEntry(_ entry: String) -> Bool {
        entry.hasPrefix("@") && entry.count > 1 && !entry.dropFirst().contains("@") && !entry.contains(" ")
    }

    private static func relayJSON(_ settings: RelaySettings) -> JSONObject {
        [
            "registeredSenders": .array(settings.registeredSenders.map { .string($0) }),
            "spfFailingDomains": .array(settings.spfFailingDomains.map { .string($0) }),
            "dailyLimit": .int(Int64(settings.dailyLimit)),
        ]
    }

    /// The official emulator's list of unused codes, in its exact shape.
    static func oobCodes(_ request: OperationRequest) throws -> JSONObject {
        let codes = try request.read { try $0.store.oobCodes.codes(in: $0.scope) }
        return [
            "oobCodes": .array(
                codes.map { record in
                    var entry: JSONObject = ["email": record.email.map { .string($0) } ?? .null]
                    entry.setIfPresent("newEmail", record.newEmail.map { .string($0) })
                    entry["requestType"] = .string(record.requestType.rawValue)
                    entry["oobCode"] = .string(record.code)
                    entry["oobLink"] = .string(record.oobLink)
                    return .object(entry)
                })
        ]
    }

    // MARK: Waiting

    /// Answers at once when `found` makes something of the messages, or when not asked to wait;
    /// otherwise suspends until a matching message commits or the wait runs out.
    private static func answer(
        _ request: OperationRequest, waitSeconds: Double,
        found: @escaping @Sendable ([OutboxMessage]) -> OperationResult?,
        query: @escaping @Sendable (StoreTransaction) throws -> [OutboxMessage],
        timedOut: @escaping @Sendable () -> OperationResult
    ) throws -> OperationResult {
        let store = request.environment.store
        let now = try store.read(query)
        if let result = found(now) { return result }
        guard waitSeconds > 0 else { return timedOut() }
        let waiters = request.environment.outboxWaiters
        let projectId = request.scope.projectId
        return .deferred { answer in
            waiters.wait(projectId: projectId, seconds: waitSeconds) {
                guard let messages = try? store.read(query), let result = found(messages) else { return false }
                answer.complete(result)
                return true
            } onTimeout: {
                answer.complete(timedOut())
            }
        }
    }

    private static func waitSeconds(_ request: OperationRequest) throws(AuthError) -> Double {
        guard let text = request.queryValue("waitSeconds"), !text.isEmpty else { return 0 }
        guard let seconds = Double(text), seconds >= 0, seconds <= maximumWaitSeconds else {
            throw AuthError.invalid("INVALID_ARGUMENT : waitSeconds must be a number from 0 to 60.")
        }
        return seconds
    }

    private static func filter(_ request: OperationRequest) throws(AuthError) -> OutboxFilter {
        func value(_ name: String) -> String? {
            guard let text = request.queryValue(name), !text.isEmpty else { return nil }
            return text
        }
        var filter = OutboxFilter()
        filter.to = value("to").map(EmailAddress.canonical)
        if let type = value("requestType") {
            guard messageTypes.contains(type) else {
                throw AuthError.invalid(
                    "INVALID_ARGUMENT : requestType must be one of \(messageTypes.sorted().joined(separator: ", ")).")
            }
            filter.requestType = type
        }
        filter.tenantId = value("tenantId")
        if let since = value("since") {
            guard let id = Int64(since) else { throw AuthError.invalid("INVALID_ARGUMENT : since must be a message id.") }
            filter.since = id
        }
        if let limit = value("limit") {
            guard let count = Int(limit), count > 0, count <= 1000 else {
                throw AuthError.invalid("INVALID_ARGUMENT : limit must be from 1 to 1000.")
            }
            filter.limit = count
        }
        return filter
    }
}
