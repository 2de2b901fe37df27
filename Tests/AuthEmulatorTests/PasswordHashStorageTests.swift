@testable import AuthEmulator
import Foundation
import JSON
import SQLiteStore
import Testing

/// The emulator's own `fakeHash:salt=…:password=…` is stored as the password alone (migration 17)
/// and read back as the same string; any other hash is stored as it is.
@Suite struct PasswordHashStorageTests {
    @Test func theOwnHashIsStoredAsThePasswordAndReadBackWhole() throws {
        let file = RefreshTokenStorageTests.temporaryFile()
        defer { RefreshTokenStorageTests.remove(file) }
        let localId: String
        do {
            let emulator = try TestEmulator(dataFile: file)
            localId = try #require(try emulator.signUp("own@example.com", "pässwörd:=x")["localId"]?.stringValue)
            let user = try emulator.admin("accounts:lookup", ["localId": [.string(localId)]])["users"]?.arrayValue?.first
            let salt = user?["salt"]?.stringValue ?? "none"
            #expect(user?["passwordHash"]?.stringValue == "fakeHash:salt=\(salt):password=pässwörd:=x")
            #expect(try emulator.client("signInWithPassword", ["email": "own@example.com", "password": "pässwörd:=x"]).status == 200)
        }
        do {  // closed before the emulator opens the file again
            let database = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations)
            let row = try #require(try database.read {
                try $0.queryFirst("SELECT password_hash, fake_password FROM users WHERE local_id = ?", [.text(localId)])
            })
            #expect(row[0] == .null)
            #expect(row[1].text == "pässwörd:=x")
        }
        let emulator = try TestEmulator(dataFile: file)
        #expect(try emulator.client("signInWithPassword", ["email": "own@example.com", "password": "pässwörd:=x"]).status == 200)
        #expect(try emulator.client("signInWithPassword", ["email": "own@example.com", "password": "other1"]).status == 400)
    }

    /// A version-16 file: the own hash moves, a hash of another salt and an imported one stay.
    @Test func aVersion16FileReadsTheSameHashes() throws {
        let file = RefreshTokenStorageTests.temporaryFile()
        defer { RefreshTokenStorageTests.remove(file) }
        let rows: [(localId: String, hash: String?, salt: String?)] = [
            ("own", "fakeHash:salt=fakeSaltAbc:password=secret123", "fakeSaltAbc"),
            ("empty", "fakeHash:salt=fakeSaltAbc:password=", "fakeSaltAbc"),
            ("otherSalt", "fakeHash:salt=fakeSaltXyz:password=secret123", "fakeSaltAbc"),
            ("imported", "aGFzaA==", "c2FsdA=="),
            ("noSalt", "fakeHash:salt=:password=secret123", nil),
            ("none", nil, nil),
        ]
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 16 })
            try old.write { connection in
                for (index, row) in rows.enumerated() {
                    try connection.execute(
                        "INSERT INTO users (project_id, tenant_id, local_id, email, created_at, password_hash, salt) VALUES (?, '', ?, ?, ?, ?, ?)",
                        [.text(TestEmulator.project), .text(row.localId), .text("u\(index)@example.com"),
                         .integer(TestEmulator.start.millisecondsSinceEpoch), SQLiteValue(row.hash), SQLiteValue(row.salt)])
                }
            }
        }
        let emulator = try TestEmulator(dataFile: file)
        for row in rows {
            let user = try emulator.admin("accounts:lookup", ["localId": [.string(row.localId)]])["users"]?.arrayValue?.first
            #expect(user?["passwordHash"]?.stringValue == row.hash, "\(row.localId)")
            #expect(user?["salt"]?.stringValue == row.salt, "\(row.localId)")
        }
        #expect(try emulator.client("signInWithPassword", ["email": "u0@example.com", "password": "secret123"]).status == 200)
        // The running emulator's own database: a second one on the file would be refused (it is in use).
        let database = emulator.emulator.environment.store.database
        let moved = try database.read {
            try $0.query("SELECT local_id FROM users WHERE fake_password IS NOT NULL ORDER BY local_id")
        }
        #expect(moved.map { $0[0].text } == ["empty", "own"])
    }
}
