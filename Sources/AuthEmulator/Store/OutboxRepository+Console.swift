import SQLiteStore

/// What the console's inbox asks of the outbox beyond the JSON API's listing: a keyset page
/// (older than a message id) narrowed by delivery status, and how many messages each status has.
struct OutboxInboxQuery: Sendable, Equatable {
    var to: String?
    var requestType: String?
    var tenantId: String?
    var status: Delivery.Status?
    /// Free text, as the API's `q`.
    var text: String?
    /// Only messages older than this id (the last one of the previous page).
    var before: Int64?
}

extension OutboxRepository {
    /// Up to `limit` messages of `projectId` matching `query`, newest first.
    func inboxPage(projectId: String, _ query: OutboxInboxQuery, limit: Int) throws -> [OutboxMessage] {
        let (clause, arguments) = Self.inboxClause(projectId: projectId, query, withStatus: true)
        // Ids first, then each message through the repository's own reader: a page is at most a
        // few dozen rows on a local file, and the decoding stays in one place.
        let ids = try connection.query(
            "SELECT id FROM outbox_messages WHERE \(clause) ORDER BY id DESC LIMIT ?", arguments + [.integer(Int64(limit))]
        ).compactMap { $0[0].integer }
        return try ids.compactMap { try message(id: $0, projectId: projectId) }
    }

    /// How many messages match `query` (its status and page cursor aside), per delivery status.
    func inboxCounts(projectId: String, _ query: OutboxInboxQuery) throws -> [Delivery.Status: Int] {
        var unpaged = query
        unpaged.before = nil
        let (clause, arguments) = Self.inboxClause(projectId: projectId, unpaged, withStatus: false)
        var counts: [Delivery.Status: Int] = [:]
        for row in try connection.query(
            "SELECT delivery_status, count(*) FROM outbox_messages WHERE \(clause) GROUP BY delivery_status", arguments)
        {
            guard let status = row[0].text.flatMap(Delivery.Status.init(rawValue:)) else { continue }
            counts[status, default: 0] += Int(row[1].integer ?? 0)
        }
        return counts
    }

    private static func inboxClause(projectId: String, _ query: OutboxInboxQuery, withStatus: Bool) -> (String, [SQLiteValue]) {
        let conditions: [(String, SQLiteValue?)] = [
            ("to_address = ?", query.to.map { .text($0) }), ("request_type = ?", query.requestType.map { .text($0) }),
            ("tenant_id = ?", query.tenantId.map { .text($0) }), ("id < ?", query.before.map { .integer($0) }),
            ("delivery_status = ?", withStatus ? query.status.map { .text($0.rawValue) } : nil),
        ]
        var present = conditions.compactMap { condition in condition.1.map { (condition.0, [$0]) } }
        if let text = query.text { present.append(freeText(text)) }
        return ((["project_id = ?"] + present.map(\.0)).joined(separator: " AND "), [.text(projectId)] + present.flatMap(\.1))
    }
}
