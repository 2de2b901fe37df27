import JSON

/// The outbox over HTTP (DESIGN §3): list, one message or the latest, wait for the next, delete,
/// and the project's senders registered with Apple's relay. Plus the official `oobCodes` list.
enum OutboxOperations {
    static let maximumWaitSeconds = 60.0
    /// Every `requestType` a message can have: the email actions and the SMS codes.
    static let messageTypes = Set(OobRequestType.allCases.map(\.rawValue) + ["PHONE_SIGN_IN", "MFA_ENROLLMENT", "MFA_SIGN_IN"])

    static func list(_ request: OperationRequest) throws -> OperationResult {
        var filter = try OutboxFilter(query: request.queryValue)
        let waitSeconds = try waitSeconds(request)
        // A wait is for mail the user would receive: it ends on a delivered or relayed message.
        filter.skipsBounced = waitSeconds > 0
        return try answer(request, waitSeconds: waitSeconds) { messages in
            messages.isEmpty ? nil : .json(["messages": .array(messages.map { .object($0.json) })])
        } query: { [filter] store in
            try store.outbox.messages(projectId: request.scope.projectId, filter)
        } timedOut: {
            UnseenProjectHint.logIfUnseen(request, listing: "The outbox")
            return .json(["messages": []])
        }
    }

    /// `…/messages/{id}`; `latest` takes the list's filters (and may wait for one), and skips
    /// bounced messages unless `status` asks for them.
    static func get(_ request: OperationRequest) throws -> OperationResult {
        let id = request.pathParameters["messageId"] ?? ""
        let projectId = request.scope.projectId
        let store = request.environment.store
        guard id == "latest" else {
            return .json(try withRawSource(storedMessage(request), from: store))
        }
        var latest = try OutboxFilter(query: request.queryValue)
        latest.skipsBounced = true
        latest.limit = 1
        let filter = latest
        let notFound = noMessageMatched(request)
        return try answer(request, waitSeconds: try waitSeconds(request)) { messages in
            messages.first.flatMap { try? .json(withRawSource($0, from: store)) }
        } query: { store in
            try store.outbox.messages(projectId: projectId, filter)
        } timedOut: {
            UnseenProjectHint.logIfUnseen(request, listing: "The outbox")
            return ResponseRenderer.failure(notFound)
        }
    }

    /// One message with, for the app's own mail, its raw source (lists carry only `rawSize`).
    private static func withRawSource(_ message: OutboxMessage, from store: AuthStore) throws -> JSONObject {
        var json = message.json
        if let raw = try rawSource(of: message, from: store) { json["raw"] = .string(String(decoding: raw, as: UTF8.self)) }
        return json
    }

    private static func rawSource(of message: OutboxMessage, from store: AuthStore) throws -> [UInt8]? {
        try message.rawSourceId.flatMap { id in try store.read { try $0.outbox.rawSource(id: id) } }
    }

    /// `…/messages/{id}.eml`: the message as RFC 5322 source, for a mail client or a MIME parser.
    static func source(_ request: OperationRequest) throws -> OperationResult {
        let message = try storedMessage(request)
        guard let source = try emlSource(of: message, from: request.environment.store) else {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : Message \(message.id) is an SMS to \(message.to); only emails have a .eml source.")
        }
        return .download(source, contentType: "message/rfc822", fileName: "message-\(message.id).eml")
    }

    /// An email's RFC 5322 source (the `.eml` download and the console's raw view): the app's own
    /// mail as it was received, Firebase's as the mail it would have been. Nil for an SMS.
    static func emlSource(of message: OutboxMessage, from store: AuthStore) throws -> [UInt8]? {
        guard message.isEmail else { return nil }
        return try rawSource(of: message, from: store) ?? Array(MessageSource.render(message).utf8)
    }

    /// `DELETE …/messages/{id}`: one message; the others stay.
    static func delete(_ request: OperationRequest) throws -> JSONObject {
        let id = request.pathParameters["messageId"] ?? ""
        let projectId = request.scope.projectId
        guard let number = Int64(id),
            try request.environment.store.write({ try $0.outbox.delete(id: number, projectId: projectId) })
        else { throw messageNotFound(id, projectId) }
        return [:]
    }

    private static func storedMessage(_ request: OperationRequest) throws -> OutboxMessage {
        let id = request.pathParameters["messageId"] ?? ""
        let projectId = request.scope.projectId
        guard let number = Int64(id),
            let message = try request.environment.store.read({ try $0.outbox.message(id: number, projectId: projectId) })
        else { throw messageNotFound(id, projectId) }
        return message
    }

    /// `latest` found nothing: which filters it applied, and that it passes over bounced mail.
    private static func noMessageMatched(_ request: OperationRequest) -> AuthError {
        let filters = request.query.filter { $0.name != "waitSeconds" && !OperationFields.systemQuery.contains($0.name) }
        let matched = filters.isEmpty ? "is in" : "matched \(filters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")) in"
        let waited = request.query.first { $0.name == "waitSeconds" }.map { " within \($0.value) s" } ?? ""
        let bounced = filters.contains { $0.name == "status" }
            ? "" : "; latest passes over bounced mail unless status asks for it (status=bounced)"
        return AuthError(
            httpStatus: 404,
            message: "MESSAGE_NOT_FOUND : No message \(matched) the outbox of \(request.scope.projectId)\(waited)\(bounced).",
            reason: "notFound", status: "NOT_FOUND")
    }

    private static func messageNotFound(_ id: String, _ projectId: String) -> AuthError {
        AuthError(
            httpStatus: 404, message: "MESSAGE_NOT_FOUND : No message \(id) in the outbox of \(projectId).",
            reason: "notFound", status: "NOT_FOUND")
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
        if let value = body.value("dailyLimit") {
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
        if codes.isEmpty { UnseenProjectHint.logIfUnseen(request, listing: "oobCodes") }
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

}

extension OutboxFilter {
    /// The filters as the outbox routes take them from the query (`to`, `requestType`, `tenantId`,
    /// `since`, `limit`, `status`, `forwardedTo`, `subject`, `q`); `value` reads one parameter, so a
    /// form's fields work as well. Empty values are no filter.
    init(query value: (String) -> String?) throws(AuthError) {
        func present(_ name: String) -> String? {
            guard let text = value(name), !text.isEmpty else { return nil }
            return text
        }
        self.init()
        to = present("to").map(EmailAddress.canonical)
        if let type = present("requestType") {
            let types = OutboxOperations.messageTypes
            guard types.contains(type) else {
                throw AuthError.invalid(
                    "INVALID_ARGUMENT : requestType must be one of \(types.sorted().joined(separator: ", ")).")
            }
            requestType = type
        }
        tenantId = present("tenantId")
        if let since = present("since") {
            guard let id = Int64(since) else { throw AuthError.invalid("INVALID_ARGUMENT : since must be a message id.") }
            self.since = id
        }
        if let limit = present("limit") {
            guard let count = Int(limit), count > 0, count <= 1000 else {
                throw AuthError.invalid("INVALID_ARGUMENT : limit must be from 1 to 1000.")
            }
            self.limit = count
        }
        if let status = present("status") {
            // One status or several, comma-separated: `status=delivered,relayed`.
            var statuses = Set<Delivery.Status>()
            for name in status.split(separator: ",", omittingEmptySubsequences: false) {
                guard let parsed = Delivery.Status(rawValue: name.filter { $0 != " " }.lowercased()) else {
                    throw AuthError.invalid(
                        "INVALID_ARGUMENT : status must be delivered, relayed or bounced (or several, comma-separated), not \(name).")
                }
                statuses.insert(parsed)
            }
            self.statuses = statuses
        }
        forwardedTo = present("forwardedTo").map(EmailAddress.canonical)
        subject = present("subject")
        text = present("q")
    }
}
