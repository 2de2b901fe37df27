@testable import AuthEmulator
import SQLiteStore
import Testing

/// Migration 24 keeps provider links in their key's b-tree (WITHOUT ROWID). A file written before
/// it reads back the same links, and the database still holds "already linked" and the cascade.
@Suite struct ProviderLinkStorageTests {
    private let scope = UserScope(projectId: TestEmulator.project)

    private func user(_ localId: String, links: [ProviderUserInfo]) -> UserRecord {
        var user = UserRecord(localId: localId, scope: scope, createdAt: TestEmulator.start)
        user.email = "\(localId)@example.com"
        user.providers = links
        return user
    }

    private let links = [
        ProviderUserInfo(providerId: "google.com", rawId: "g-1", federatedId: "g-1", email: "g@example.com", displayName: "G"),
        ProviderUserInfo(providerId: "apple.com", rawId: "a-1", email: "a@privaterelay.appleid.com"),
        ProviderUserInfo(providerId: "facebook.com", rawId: "f-1", photoUrl: "https://example.com/p.png", screenName: "f"),
    ]

    @Test func aFileWrittenBeforeTheMigrationKeepsItsLinksAndTheirRules() throws {
        let file = RefreshTokenStorageTests.temporaryFile()
        defer { RefreshTokenStorageTests.remove(file) }
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version < 24 })
            try old.write { connection in
                let users = UserRepository(connection: connection)
                var linked = user("linked", links: links)
                try users.save(&linked)
                var plain = user("plain", links: [])
                try users.save(&plain)
            }
        }
        let database = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations)
        try database.read { connection in
            let table = try connection.queryFirst("SELECT sql FROM sqlite_master WHERE name = 'provider_links'")
            #expect(table?[0].text?.hasSuffix("WITHOUT ROWID") == true)
            let users = UserRepository(connection: connection)
            #expect(try users.user(localId: "linked", in: scope)?.providers == links)
            #expect(try users.user(providerId: "apple.com", rawId: "a-1", in: scope)?.localId == "linked")
            #expect(try users.usersWithProviderEmail("g@example.com", in: scope).map(\.localId) == ["linked"])
            #expect(try users.user(localId: "plain", in: scope)?.providers == [])
            // The identity lookup reads the user's id from the index alone.
            let plan = try connection.query(
                "EXPLAIN QUERY PLAN SELECT local_id FROM provider_links WHERE project_id = ? AND tenant_id = ? AND provider_id = ? AND raw_id = ?",
                [.text(scope.projectId), .text(""), .text("apple.com"), .text("a-1")])
            #expect(plan.contains { $0[3].text?.contains("COVERING INDEX provider_links_by_identity") == true })
        }
        // "Already linked" is held by the UNIQUE index: refused, and nothing written.
        let error = #expect(throws: AuthError.self) {
            try database.write { connection in
                let users = UserRepository(connection: connection)
                var plain = try #require(try users.user(localId: "plain", in: scope))
                plain.displayName = "changed"
                plain.providers = [ProviderUserInfo(providerId: "apple.com", rawId: "a-1")]
                try users.save(&plain)
            }
        }
        #expect(error?.message == "FEDERATED_USER_ID_ALREADY_LINKED")
        try database.read { connection in
            let plain = try UserRepository(connection: connection).user(localId: "plain", in: scope)
            #expect(plain?.providers == [])
            #expect(plain?.displayName == nil)
        }
        // Deleting a user deletes its links (the foreign key's cascade).
        try database.write { connection in
            try UserRepository(connection: connection).delete(localId: "linked", in: scope)
        }
        let remaining = try database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM provider_links")?[0].integer
        }
        #expect(remaining == 0)
    }
}
