import JSON
import SQLiteStore

/// Where a "sent" email went (DESIGN §2.4).
struct Delivery: Sendable, Equatable {
    enum Status: String, Sendable {
        case delivered, relayed, bounced
    }

    let status: Status
    var forwardedTo: String?
    var reason: String?

    var json: JSONObject {
        var object: JSONObject = ["status": .string(status.rawValue)]
        object["forwardedTo"] = forwardedTo.map { .string($0) } ?? .null
        object["reason"] = reason.map { .string($0) } ?? .null
        return object
    }
}

/// One email in the outbox.
struct OutboxMessage: Sendable, Equatable {
    var id: Int64 = 0
    let scope: UserScope
    let from: String
    let to: String
    let subject: String
    let text: String
    let html: String
    let requestType: String
    let oobCode: String?
    let oobLink: String?
    let appLink: String?
    let continueUrl: String?
    let createdAt: Instant
    let delivery: Delivery
    var source = MessageOrigin.auth
    /// The app's own mail only: addresses, Message-ID and attachments as received.
    var mailDetails: AppMailDetails?
    /// The app's own mail only: its raw message, shared by the transaction's recipients.
    var rawSourceId: Int64?

    var json: JSONObject {
        var object: JSONObject = [
            "id": .string(String(id)), "projectId": .string(scope.projectId),
            "tenantId": scope.tenantId.map { .string($0) } ?? .null, "from": .string(from), "to": .string(to),
            "subject": .string(subject), "text": .string(text), "html": .string(html), "requestType": .string(requestType),
            "oobCode": oobCode.map { .string($0) } ?? .null, "oobLink": oobLink.map { .string($0) } ?? .null,
            "appLink": appLink.map { .string($0) } ?? .null, "continueUrl": continueUrl.map { .string($0) } ?? .null,
            "createdAt": .string(createdAt.rfc3339), "delivery": .object(delivery.json), "source": .string(source.rawValue),
        ]
        if let mailDetails {
            object["requestType"] = .null
            object.merge(mailDetails.json)
        }
        return object
    }
}

extension OutboxMessage {
    /// What kind of message it is, for people: the request type, or "SMTP" for the app's own mail.
    var typeLabel: String { source == .smtp ? "SMTP" : requestType }

    /// An email, not an SMS (whose recipient is a phone number).
    var isEmail: Bool { to.contains("@") }
}

/// Who sent a message (its `source` field): Firebase itself (email actions, SMS codes), or the
/// app through the SMTP listener (`--smtp-port`).
enum MessageOrigin: String, Sendable {
    case auth, smtp
}

/// Which messages a listing wants (DESIGN §3). A plain value, so the HTTP API and the console
/// filter the same way: equality filters use the outbox's indexes; `subject` and `text` are
/// case-insensitive substring matches, scanned newest first within the project and stopped at `limit`.
struct OutboxFilter: Sendable, Equatable {
    var to: String?
    var requestType: String?
    var tenantId: String?
    /// Only messages newer than this id.
    var since: Int64?
    /// Only messages with one of these delivery statuses; `nil` is every status (but see `skipsBounced`).
    var statuses: Set<Delivery.Status>?
    /// Relayed mail by the real address the relay forwarded it to.
    var forwardedTo: String?
    /// A part of the subject.
    var subject: String?
    /// Free text: a part of the subject, either body, the sender, the recipient or the forwarding address.
    var text: String?
    /// Leaves bounced messages out when `statuses` does not ask for them: `latest` and waiting
    /// listings must not hand a test a message the user never received.
    var skipsBounced = false
    var limit = 100

    /// The statuses a query keeps, or nil for all of them.
    var effectiveStatuses: Set<Delivery.Status>? {
        if let statuses { return statuses }
        return skipsBounced ? [.delivered, .relayed] : nil
    }
}

struct OutboxRepository {
    let connection: SQLiteConnection

    /// Stores `message` and answers it with its id.
    func insert(_ message: OutboxMessage) throws -> OutboxMessage {
        try connection.execute(
            """
            INSERT INTO outbox_messages (project_id, tenant_id, from_address, to_address, subject, text_body, html_body,
                request_type, oob_code, oob_link, app_link, continue_url, created_at, delivery_status, forwarded_to,
                delivery_reason, source, mail_details, raw_source_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(message.scope.projectId), .text(message.scope.tenantKey), .text(message.from), .text(message.to),
                .text(message.subject), .text(message.text), .text(message.html), .text(message.requestType),
                SQLiteValue(message.oobCode), SQLiteValue(message.oobLink), SQLiteValue(message.appLink),
                SQLiteValue(message.continueUrl), .integer(message.createdAt.millisecondsSinceEpoch),
                .text(message.delivery.status.rawValue), SQLiteValue(message.delivery.forwardedTo),
                SQLiteValue(message.delivery.reason), .text(message.source.rawValue),
                SQLiteValue(message.mailDetails.map { JSONValue.object($0.json).compactString }),
                message.rawSourceId.map { .integer($0) } ?? .null,
            ])
        var stored = message
        stored.id = connection.lastInsertRowid
        return stored
    }

    private static let columns = """
        id, tenant_id, from_address, to_address, subject, text_body, html_body, request_type, oob_code, oob_link,
        app_link, continue_url, created_at, delivery_status, forwarded_to, delivery_reason, source, mail_details,
        raw_source_id
        """

    /// Messages of a project matching `filter`, newest first.
    func messages(projectId: String, _ filter: OutboxFilter) throws -> [OutboxMessage] {
        var conditions: [(String, [SQLiteValue])] = [("project_id = ?", [.text(projectId)])]
        func add(_ sql: String, _ value: SQLiteValue?) {
            if let value { conditions.append((sql, [value])) }
        }
        add("to_address = ?", filter.to.map { .text($0) })
        add("request_type = ?", filter.requestType.map { .text($0) })
        add("tenant_id = ?", filter.tenantId.map { .text($0) })
        add("id > ?", filter.since.map { .integer($0) })
        add("forwarded_to = ?", filter.forwardedTo.map { .text($0) })
        if let statuses = filter.effectiveStatuses {
            // In the enum's order, so equal filters make equal SQL (one cached statement each).
            let kept = [Delivery.Status.delivered, .relayed, .bounced].filter(statuses.contains)
            conditions.append((
                "delivery_status IN (\(kept.map { _ in "?" }.joined(separator: ", ")))", kept.map { .text($0.rawValue) }))
        }
        // instr on lower(): a substring match that needs no escaping of LIKE's wildcards.
        add("instr(lower(subject), ?) > 0", filter.subject.map { .text($0.lowercased()) })
        if let text = filter.text { conditions.append(Self.freeText(text)) }
        let clause = conditions.map(\.0).joined(separator: " AND ")
        let arguments = conditions.flatMap(\.1) + [.integer(Int64(filter.limit))]
        return try connection.query(
            "SELECT \(Self.columns) FROM outbox_messages WHERE \(clause) ORDER BY id DESC LIMIT ?", arguments
        ).map { row in Self.decode(row, projectId: projectId) }
    }

    /// `q`'s condition: a part of the subject, either body, the sender, the recipient or the
    /// forwarding address, case-insensitive (instr on lower(): no LIKE wildcards to escape).
    static func freeText(_ text: String) -> (String, [SQLiteValue]) {
        let columns = ["subject", "text_body", "html_body", "from_address", "to_address", "coalesce(forwarded_to, '')"]
        return (
            "(" + columns.map { "instr(lower(\($0)), ?) > 0" }.joined(separator: " OR ") + ")",
            Array(repeating: .text(text.lowercased()), count: columns.count)
        )
    }

    /// Deletes one message; false when the project has no message `id`.
    func delete(id: Int64, projectId: String) throws -> Bool {
        try connection.execute("DELETE FROM outbox_messages WHERE project_id = ? AND id = ?", [.text(projectId), .integer(id)])
        let deleted = connection.changes == 1
        try deleteUnreferencedRawSources()
        return deleted
    }

    func message(id: Int64, projectId: String) throws -> OutboxMessage? {
        try connection.query(
            "SELECT \(Self.columns) FROM outbox_messages WHERE project_id = ? AND id = ?", [.text(projectId), .integer(id)]
        ).first.map { Self.decode($0, projectId: projectId) }
    }

    func deleteAll(projectId: String) throws {
        try deleteAll(.project(projectId))
    }

    func deleteAll(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "outbox_messages", of: target)
        try deleteUnreferencedRawSources()
    }

    private static func decode(_ row: SQLiteRow, projectId: String) -> OutboxMessage {
        let tenant = row[1].text ?? ""
        return OutboxMessage(
            id: row[0].integer ?? 0, scope: UserScope(projectId: projectId, tenantId: tenant.isEmpty ? nil : tenant),
            from: row[2].text ?? "", to: row[3].text ?? "", subject: row[4].text ?? "", text: row[5].text ?? "",
            html: row[6].text ?? "", requestType: row[7].text ?? "", oobCode: row[8].text, oobLink: row[9].text,
            appLink: row[10].text, continueUrl: row[11].text, createdAt: Instant(millisecondsSinceEpoch: row[12].integer ?? 0),
            delivery: Delivery(
                status: Delivery.Status(rawValue: row[13].text ?? "") ?? .delivered, forwardedTo: row[14].text,
                reason: row[15].text),
            source: MessageOrigin(rawValue: row[16].text ?? "") ?? .auth,
            mailDetails: row[17].text.flatMap { try? JSONValue(parsing: $0).objectValue }.map(AppMailDetails.init(json:)),
            rawSourceId: row[18].integer)
    }

    // MARK: Apple relay senders

    /// The senders `projectId` registered with Apple's relay; by default its Firebase sender only.
    func registeredSenders(projectId: String) throws -> [String] {
        try relaySettings(projectId: projectId).registeredSenders
    }
}
