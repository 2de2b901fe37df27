@testable import AuthEmulator
import SQLiteStore
import Testing

/// How `UserRepository.save` writes: a user read from the store gets only its changed columns,
/// a new one a plain INSERT whose primary key refuses a taken id.
@Suite struct UserStorageTests {
    private let scope = UserScope(projectId: TestEmulator.project)

    private func newUser(_ localId: String, email: String? = nil, at instant: Instant = TestEmulator.start) -> UserRecord {
        var user = UserRecord(localId: localId, scope: scope, createdAt: instant)
        user.email = email
        user.displayName = "Name of \(localId)"
        return user
    }

    @Test func aStoredUserIsWrittenOnlyInTheColumnsItChanged() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        try environment.write(in: scope) { transaction in
            var user = newUser("u1", email: "one@example.com")
            try transaction.users.save(&user)
        }
        let later = TestEmulator.start.adding(seconds: 60)
        try environment.write(in: scope) { transaction in
            var user = try #require(try transaction.users.user(localId: "u1", in: scope))
            // A column the record does not change, changed behind its back: a save that wrote
            // every column would put the old value back.
            try transaction.store.connection.execute("UPDATE users SET photo_url = 'behind' WHERE local_id = 'u1'")
            user.lastLoginAt = later
            try transaction.users.save(&user)
        }
        let stored = try environment.read(in: scope) { try $0.users.user(localId: "u1", in: scope) }
        #expect(stored?.lastLoginAt == later)
        #expect(stored?.photoUrl == "behind")
        #expect(stored?.email == "one@example.com")
        #expect(stored?.displayName == "Name of u1")
    }

    @Test func aStoredUserSavedUnchangedReadsBackTheSame() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        try environment.write(in: scope) { transaction in
            var user = newUser("u1", email: "one@example.com")
            user.passwordHash = FakePasswordHash.hash("secret123", salt: "fakeSaltAbc")
            user.salt = "fakeSaltAbc"
            user.providers = [ProviderUserInfo(providerId: "google.com", rawId: "g-1", email: "one@example.com")]
            try transaction.users.save(&user)
        }
        let first = try environment.read(in: scope) { try $0.users.user(localId: "u1", in: scope) }
        try environment.write(in: scope) { transaction in
            var user = try #require(try transaction.users.user(localId: "u1", in: scope))
            try transaction.users.save(&user)
        }
        let second = try environment.read(in: scope) { try $0.users.user(localId: "u1", in: scope) }
        #expect(first == second)
        #expect(second?.providers.map(\.rawId) == ["g-1"])
        #expect(second?.passwordHash == "fakeHash:salt=fakeSaltAbc:password=secret123")
    }

    /// Deleted after it was read, in the same transaction: saving writes it whole again.
    @Test func aUserDeletedSinceItWasReadIsWrittenWhole() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        try environment.write(in: scope) { transaction in
            var user = newUser("u1", email: "one@example.com")
            try transaction.users.save(&user)
        }
        try environment.write(in: scope) { transaction in
            var user = try #require(try transaction.users.user(localId: "u1", in: scope))
            try transaction.users.delete(localId: "u1", in: scope)
            user.displayName = "Renamed"
            try transaction.users.save(&user)
        }
        let stored = try environment.read(in: scope) { try $0.users.user(localId: "u1", in: scope) }
        #expect(stored?.displayName == "Renamed")
        #expect(stored?.email == "one@example.com")
    }

    @Test func aNewUserWithATakenIdIsRefusedAndChangesNothing() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        try environment.write(in: scope) { transaction in
            var user = newUser("u1", email: "one@example.com")
            try transaction.users.save(&user)
        }
        let error = #expect(throws: AuthError.self) {
            try environment.write(in: scope) { transaction in
                var user = newUser("u1", email: "other@example.com")
                try transaction.users.save(&user)
            }
        }
        #expect(error?.message == "DUPLICATE_LOCAL_ID")
        let stored = try environment.read(in: scope) { try $0.users.user(localId: "u1", in: scope) }
        #expect(stored?.email == "one@example.com")
    }

    /// Users of one email come oldest first, then by id as SQL's BINARY collation orders it (bytes,
    /// not Swift's canonical-equivalence order: "e\u{301}" and "é" are different ids).
    @Test func usersOfAnEmailAreOldestFirstThenByIdBytes() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        let ids = ["z", "\u{e9}", "e\u{301}", "Z", "late", "a"]
        try environment.write(in: scope) { transaction in
            for id in ids {
                var user = newUser(
                    id, email: "same@example.com", at: TestEmulator.start.adding(seconds: id == "late" ? 10 : id == "a" ? 5 : 0))
                try transaction.users.save(&user)
            }
        }
        let found = try environment.read(in: scope) { try $0.users.users(email: "same@example.com", in: scope).map(\.localId) }
        let bySQL = try environment.read(in: scope) { transaction in
            try transaction.store.connection.query(
                "SELECT local_id FROM users WHERE email = 'same@example.com' ORDER BY created_at, local_id"
            ).map { $0[0].text ?? "" }
        }
        #expect(found.map { Array($0.utf8) } == bySQL.map { Array($0.utf8) })
        #expect(found.map { Array($0.utf8) } == ["Z", "e\u{301}", "z", "\u{e9}", "a", "late"].map { Array($0.utf8) })
    }

    /// The reads by id, by email and by provider link read each user's links in the user's own
    /// statement (a LEFT JOIN): every user gets exactly its own links, in their stored order (not
    /// the index's provider order), and the same records as the paged read, which queries the
    /// links separately.
    @Test func usersReadWithTheirLinksHoldTheirOwnLinksInOrder() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        func link(_ providerId: String, _ rawId: String) -> ProviderUserInfo {
            ProviderUserInfo(providerId: providerId, rawId: rawId, email: "\(rawId)@example.com", displayName: "\(providerId) name")
        }
        let linksOf: [String: [ProviderUserInfo]] = [
            "none": [],
            "one": [link("apple.com", "a-1")],
            "three": [link("google.com", "g-3"), link("apple.com", "a-3"), link("facebook.com", "f-3")],
        ]
        try environment.write(in: scope) { transaction in
            for (offset, id) in ["three", "none", "one"].enumerated() {
                var user = newUser(id, email: "shared@example.com", at: TestEmulator.start.adding(seconds: Int64(offset)))
                user.providers = linksOf[id] ?? []
                try transaction.users.save(&user)
            }
        }
        try environment.read(in: scope) { transaction in
            let users = transaction.users
            let paged = try users.users(in: scope, afterLocalId: nil, limit: nil)
            #expect(paged.map(\.localId) == ["none", "one", "three"])
            for user in paged { #expect(user.providers == linksOf[user.localId]) }

            let byEmail = try users.users(email: "shared@example.com", in: scope)
            #expect(byEmail.map(\.localId) == ["three", "none", "one"])
            for user in byEmail {
                #expect(user.providers == linksOf[user.localId])
                #expect(user == paged.first { $0.localId == user.localId })
                #expect(try users.user(localId: user.localId, in: scope) == user)
            }
            for (id, links) in linksOf {
                for link in links {
                    let linked = try users.user(providerId: link.providerId, rawId: link.rawId, in: scope)
                    #expect(linked?.localId == id)
                    #expect(linked?.providers == links)
                }
            }
            #expect(try users.user(providerId: "apple.com", rawId: "nobody", in: scope) == nil)
            #expect(try users.user(providerId: "g-3", rawId: "google.com", in: scope) == nil)
            #expect(try users.user(localId: "nobody", in: scope) == nil)
            #expect(try users.users(email: "nobody@example.com", in: scope).isEmpty)
        }
        // A link removed and one added: read back in the order saved.
        try environment.write(in: scope) { transaction in
            var user = try #require(try transaction.users.user(localId: "three", in: scope))
            user.providers.remove(at: 1)
            user.providers.insert(link("yahoo.com", "y-3"), at: 0)
            try transaction.users.save(&user)
        }
        let three = try environment.read(in: scope) { try $0.users.user(providerId: "yahoo.com", rawId: "y-3", in: scope) }
        #expect(three?.providers.map(\.rawId) == ["y-3", "g-3", "f-3"])
        #expect(try environment.read(in: scope) { try $0.users.user(providerId: "apple.com", rawId: "a-3", in: scope) } == nil)
    }

    /// sendOobCode's greeting reads who holds an email from three columns: the same user (and
    /// name) as the oldest of `users(email:)`, or nobody.
    @Test func theEmailOwnerIsTheOldestUserOfTheEmail() throws {
        let emulator = try TestEmulator()
        let environment = emulator.emulator.environment
        try environment.write(in: scope) { transaction in
            for (id, seconds) in [("b", 0), ("a", 0), ("first", -5)] as [(String, Int64)] {
                var user = newUser(id, email: "shared@example.com", at: TestEmulator.start.adding(seconds: seconds + 10))
                if id == "first" { user.displayName = nil }
                try transaction.users.save(&user)
            }
            for id in ["a2", "b2"] {
                var user = newUser(id, email: "tie@example.com")
                try transaction.users.save(&user)
            }
        }
        try environment.read(in: scope) { transaction in
            let users = transaction.users
            for email in ["shared@example.com", "tie@example.com"] {
                let oldest = try #require(try users.users(email: email, in: scope).first)
                let owner = try users.emailOwner(email, in: scope)
                #expect(owner != nil)
                #expect(owner?.displayName == oldest.displayName)
            }
            #expect(try users.emailOwner("shared@example.com", in: scope)?.displayName == nil)
            #expect(try users.emailOwner("tie@example.com", in: scope)?.displayName == "Name of a2")
            #expect(try users.emailOwner("nobody@example.com", in: scope) == nil)
        }
    }
}
