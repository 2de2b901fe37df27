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
}
