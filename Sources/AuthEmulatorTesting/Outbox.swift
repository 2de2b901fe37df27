import Foundation

/// A message of the outbox: an email Firebase would send, an SMS, or the app's own mail (SMTP).
public struct OutboxMessage: Sendable, Decodable {
    public let id: String
    public let projectId: String
    public let tenantId: String?
    public let from: String
    /// One address or phone number.
    public let to: String
    public let subject: String
    public let text: String
    public let html: String?
    /// `EMAIL_SIGNIN`, `PASSWORD_RESET`, `VERIFY_EMAIL`, …, `PHONE_SIGN_IN`, `MFA_SIGN_IN`; nil for SMTP mail.
    public let requestType: String?
    /// The email action code, or the SMS code.
    public let oobCode: String?
    /// The emulator's own action link (`/emulator/action?mode=…&oobCode=…`).
    public let oobLink: String?
    /// With `canHandleCodeInApp`: the link a mobile app receives.
    public let appLink: String?
    public let continueUrl: String?
    public let createdAt: String
    public let delivery: Delivery
    /// `auth` for Firebase's mail and SMS, `smtp` for the app's own mail.
    public let source: String?
    /// The app's own mail: the SMTP transaction's addresses, the attachments, the source (in
    /// `latest` and single-message answers).
    public let envelope: Envelope?
    public let attachments: [Attachment]?
    public let raw: String?

    public struct Envelope: Sendable, Decodable, Equatable {
        public let from: String
        public let to: [String]
    }

    public struct Attachment: Sendable, Decodable, Equatable {
        public let filename: String?
        public let contentType: String
        public let size: Int
    }

    /// What happened to the message (Apple's private relay decides for relay addresses).
    public struct Delivery: Sendable, Decodable, Equatable {
        public enum Status: String, Sendable, Decodable {
            case delivered, relayed, bounced
        }

        public let status: Status
        /// The real address the relay forwarded to.
        public let forwardedTo: String?
        /// Why it bounced.
        public let reason: String?

        public init(status: Status, forwardedTo: String? = nil, reason: String? = nil) {
            self.status = status
            self.forwardedTo = forwardedTo
            self.reason = reason
        }
    }

    /// The link the user follows: `appLink` when the app handles the code, else `oobLink`.
    public var link: String? { appLink ?? oobLink }

    /// The link's `mode` (`signIn`, `resetPassword`, `verifyEmail`, …), read as the Apple SDK reads it.
    public var mode: String? { link.flatMap { EmailLink.items(of: $0)["mode"] } }
}

/// `GET /emulator/v1/projects/{p}/messages` and friends, for one project (or tenant).
public struct Outbox: Sendable {
    public let project: Project

    var path: String { "/emulator/v1/projects/\(project.id)/messages" }

    /// What to match. Every field is optional; `tenantId` defaults to the view's tenant.
    public struct Filter: Sendable, CustomStringConvertible {
        public var to: String?
        public var requestType: String?
        public var status: [OutboxMessage.Delivery.Status]?
        public var forwardedTo: String?
        public var subject: String?
        public var text: String?
        /// Only messages newer than this id.
        public var since: String?

        public init(to: String? = nil, requestType: String? = nil, status: [OutboxMessage.Delivery.Status]? = nil,
                    forwardedTo: String? = nil, subject: String? = nil, text: String? = nil, since: String? = nil) {
            self.to = to
            self.requestType = requestType
            self.status = status
            self.forwardedTo = forwardedTo
            self.subject = subject
            self.text = text
            self.since = since
        }

        func query(tenantId: String?) -> [(String, String?)] {
            [("to", to), ("requestType", requestType), ("tenantId", tenantId),
             ("status", status.map { $0.map(\.rawValue).joined(separator: ",") }),
             ("forwardedTo", forwardedTo), ("subject", subject), ("q", text), ("since", since)]
        }

        public var description: String {
            let parts = [("to", to), ("requestType", requestType), ("status", status.map { $0.map(\.rawValue).joined(separator: ",") }),
                         ("forwardedTo", forwardedTo), ("subject", subject), ("text", text), ("since", since)]
                .compactMap { name, value in value.map { "\(name) \($0)" } }
            return parts.isEmpty ? "any message" : "a message with " + parts.joined(separator: ", ")
        }
    }

    /// The messages matching `filter`, newest first (bounced ones included).
    public func messages(_ filter: Filter = Filter(), limit: Int? = nil) async throws -> [OutboxMessage] {
        let answer = try await project.emulator.http.json(
            "GET", path, query: filter.query(tenantId: project.tenantId) + [("limit", limit.map(String.init))])
        return try (answer["messages"] ?? []).decode()
    }

    /// The messages to one address or phone number, newest first.
    public func messages(to address: String) async throws -> [OutboxMessage] {
        try await messages(Filter(to: address))
    }

    /// The newest message matching `filter`, or nil. Like the route, it skips bounced mail unless
    /// `filter.status` asks for it.
    public func latest(_ filter: Filter = Filter()) async throws -> OutboxMessage? {
        do {
            return try await project.emulator.http.json("GET", path + "/latest", query: filter.query(tenantId: project.tenantId))
                .decode()
        } catch let error as EmulatorError where error.status == 404 {
            return nil
        }
    }

    /// The newest message id now in the outbox (nil when empty): pass it as `since` to wait only
    /// for mail sent after this point.
    public func mark() async throws -> String? {
        try await messages(limit: 1).first?.id
    }

    /// Waits for a message matching `filter` (by default one already there counts; give `since` for
    /// only newer ones), holding one long-poll request at a time, up to `timeout` seconds. Bounced
    /// mail does not count unless `filter.status` names it. When time runs out it throws, saying
    /// what it waited for and which messages the outbox held.
    public func waitForMessage(_ filter: Filter, timeout: TimeInterval = 10) async throws -> OutboxMessage {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            let wait = max(0, min(60, Int(remaining.rounded(.down))))
            let query = filter.query(tenantId: project.tenantId) + [("limit", "1"), ("waitSeconds", String(wait))]
            let answer = try await project.emulator.http.json("GET", path, query: query, timeout: TimeInterval(wait) + 15)
            let found: [OutboxMessage] = try (answer["messages"] ?? []).decode()
            if let message = found.first { return message }
            if deadline.timeIntervalSinceNow <= 0 || wait == 0 { break }
            // An empty answer before the deadline: a reset ended the wait, or the wait was shorter.
        }
        let arrived = (try? await messages(limit: 20)) ?? []
        let seen = arrived.isEmpty ? "the outbox is empty" : "the outbox holds, newest first: " + arrived.map {
            "#\($0.id) to \($0.to) \($0.requestType ?? $0.source ?? "") \"\($0.subject)\" (\($0.delivery.status.rawValue)\($0.delivery.reason.map { ": \($0)" } ?? ""))"
        }.joined(separator: "; ")
        throw EmulatorKitError(.timedOut, "waited \(Self.seconds(timeout)) for \(filter) in project \(project.id)\(project.tenantId.map { " tenant \($0)" } ?? ""); \(seen)")
    }

    /// Waits for mail to `address` (see `waitForMessage(_:timeout:)`).
    public func waitForMessage(to address: String, requestType: String? = nil, since: String? = nil,
                               timeout: TimeInterval = 10) async throws -> OutboxMessage {
        try await waitForMessage(Filter(to: address, requestType: requestType, since: since), timeout: timeout)
    }

    /// Waits for the SMS code sent to `phoneNumber` (phone sign-in or a second factor) and answers it.
    public func waitForSMSCode(to phoneNumber: String, requestType: String? = nil, since: String? = nil,
                               timeout: TimeInterval = 10) async throws -> String {
        let message = try await waitForMessage(Filter(to: phoneNumber, requestType: requestType, since: since), timeout: timeout)
        guard let code = message.oobCode else {
            throw EmulatorKitError(.unexpectedAnswer, "message #\(message.id) to \(phoneNumber) carries no code: \(message.text)")
        }
        return code
    }

    /// Empties the outbox.
    public func clear() async throws {
        try await project.emulator.http.json("DELETE", path)
    }

    /// Deletes one message.
    public func delete(_ id: String) async throws {
        try await project.emulator.http.json("DELETE", path + "/\(id)")
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }
}
