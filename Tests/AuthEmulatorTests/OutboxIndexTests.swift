@testable import AuthEmulator
import SQLiteStore
import Testing

/// Migration 21: the outbox's relay indexes hold relayed messages only (most messages are delivered,
/// and no query asks those indexes about them). A file written before it keeps answering the same.
@Suite struct OutboxIndexTests {
    static let scope = UserScope(projectId: TestEmulator.project)
    static let now = TestEmulator.start

    static func message(to: String, _ delivery: Delivery, minutesAgo: Int64 = 0) -> OutboxMessage {
        OutboxMessage(
            scope: scope, from: "noreply@example.com", to: to, subject: "s", text: "t", html: "h", requestType: "EMAIL_SIGNIN",
            oobCode: nil, oobLink: nil, appLink: nil, continueUrl: nil, createdAt: now.adding(seconds: -60 * minutesAgo),
            delivery: delivery)
    }

    @Test func aFileWrittenBeforeTheMigrationCountsAndFiltersTheSame() throws {
        let file = RefreshTokenStorageTests.temporaryFile()
        defer { RefreshTokenStorageTests.remove(file) }
        let relayAddress = "abc@privaterelay.appleid.com"
        let relayed = Delivery(status: .relayed, forwardedTo: "ada@example.com")
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version != 21 })
            try old.write { connection in
                let outbox = OutboxRepository(connection: connection)
                _ = try outbox.insert(Self.message(to: relayAddress, relayed, minutesAgo: 5))
                _ = try outbox.insert(Self.message(to: relayAddress, relayed, minutesAgo: 60 * 25))
                _ = try outbox.insert(Self.message(to: relayAddress, Delivery(status: .bounced, reason: "off")))
                _ = try outbox.insert(Self.message(to: "ada@example.com", Delivery(status: .delivered)))
            }
        }
        let database = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations)
        try database.write { connection in
            let outbox = OutboxRepository(connection: connection)
            _ = try outbox.insert(Self.message(to: relayAddress, relayed, minutesAgo: 1))
            _ = try outbox.insert(Self.message(to: "bob@example.com", Delivery(status: .delivered)))
        }
        try database.read { connection in
            let outbox = OutboxRepository(connection: connection)
            #expect(try outbox.relayedCount(to: relayAddress, since: Self.now.adding(seconds: -86_400)) == 2)
            #expect(try outbox.relayedCount(to: relayAddress.uppercased(), since: Self.now.adding(seconds: -86_400)) == 2)
            var filter = OutboxFilter()
            filter.forwardedTo = "ada@example.com"
            #expect(try outbox.messages(projectId: Self.scope.projectId, filter).map(\.to) == [relayAddress, relayAddress, relayAddress])

            // The relay's count and the forwardedTo filter still use the (now partial) indexes.
            let countPlan = try connection.query(
                "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM outbox_messages WHERE to_address IN (?, ?) AND created_at > ? AND delivery_status = 'relayed'",
                [.text(relayAddress), .text(relayAddress), .integer(0)])
            #expect(countPlan.contains { $0[3].text?.contains("outbox_by_recipient_time") == true })
            let filterPlan = try connection.query(
                "EXPLAIN QUERY PLAN SELECT id FROM outbox_messages WHERE project_id = ? AND forwarded_to = ? ORDER BY id DESC LIMIT 5",
                [.text(Self.scope.projectId), .text("ada@example.com")])
            #expect(filterPlan.contains { $0[3].text?.contains("outbox_by_forwarding") == true })

            // The partial index serves a query that names relayed messages.
            let entries = try connection.queryFirst("SELECT COUNT(*) FROM outbox_messages INDEXED BY outbox_by_recipient_time WHERE delivery_status = 'relayed' AND to_address > ''")
            #expect(entries?[0].integer == 3)
        }
    }
}
