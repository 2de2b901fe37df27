@testable import AuthEmulator
import Foundation
import JOSE
import JSON
import SQLiteStore
import Testing

/// Refresh tokens are stored by the SHA-256 of their string (migration 15), cut to 16 bytes
/// (migration 23); the string on the wire is unchanged, and tokens that a version-14 or a
/// version-17 `--data` file holds keep working.
@Suite struct RefreshTokenStorageTests {
    static let project = TestEmulator.project

    @Test func theStoreKeepsTheDigestNotTheString() throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let token: String
        do {
            let emulator = try TestEmulator(dataFile: file)
            token = try #require(try emulator.signUp("kept@example.com")["refreshToken"]?.stringValue)
        }
        let database = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations)
        let stored = try database.read { try $0.query("SELECT token_sha256 FROM refresh_tokens") }
        #expect(stored.map { $0[0].blob } == [RefreshTokenRepository.digest(of: token)])
        #expect(stored.first?[0].blob?.count == 16)
        #expect(stored.first?[0].blob.map { $0[...] } == SHA256.hash(token.utf8).prefix(16))
        let columns = try database.read { try $0.query("SELECT name FROM pragma_table_info('refresh_tokens')") }
        #expect(!columns.contains { $0[0].text == "token" })
    }

    @Test func aTokenIsFoundOnlyByItsWholeString() throws {
        let emulator = try TestEmulator()
        let token = try #require(try emulator.signUp("exact@example.com")["refreshToken"]?.stringValue)
        #expect(try emulator.refresh(token).status == 200)
        for altered in [String(token.dropLast()), token + "A", "A" + token.dropFirst(), token.lowercased()] where altered != token {
            #expect(try emulator.refresh(altered).errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test func clearingATenantDeletesItsTokensOnly() throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let emulator = try TestEmulator(dataFile: file)
        let kept = try #require(try emulator.signUp("kept@example.com")["refreshToken"]?.stringValue)
        let signUp = try emulator.client(
            "signUp", ["email": "cleared@example.com", "password": "secret123", "returnSecureToken": true, "tenantId": "t1"])
        let cleared = try #require(signUp["refreshToken"]?.stringValue)
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(Self.project)/tenants/t1/accounts").status == 200)
        let afterClear = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token?key=test-api-key",
            json: ["grantType": "refresh_token", "refreshToken": .string(cleared), "tenantId": "t1"])
        #expect(afterClear.errorMessage == "INVALID_REFRESH_TOKEN")
        #expect(try emulator.refresh(kept).status == 200)
        // The running emulator's own database: a second one on the file would be refused (it is in use).
        let database = emulator.emulator.environment.store.database
        let left = try database.read { try $0.query("SELECT tenant_id FROM refresh_tokens") }
        #expect(left.map { $0[0].text } == [""])
    }

    /// A version-14 file: tokens stored whole, as the official format's string, one with custom
    /// claims and one of a tenant. After the upgrade each refreshes, with its claims and tenant.
    @Test func tokensOfAVersion14FileStillRefresh() throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let issued = TestEmulator.start
        func record(_ localId: String, tenant: String?, claims: JSONObject?) -> RefreshTokenRecord {
            RefreshTokenRecord(
                token: "", scope: UserScope(projectId: Self.project, tenantId: tenant), localId: localId,
                signInProvider: "password", extraClaims: claims, secondFactor: nil, issuedAt: issued)
        }
        let plain = RefreshTokenFormat.encode(record("plainUser", tenant: nil, claims: nil), tokenId: "t1")
        let custom = RefreshTokenFormat.encode(
            record("customUser", tenant: nil, claims: ["role": "admin"]), tokenId: "t2")
        let tenantToken = RefreshTokenFormat.encode(record("tenantUser", tenant: "team-1", claims: nil), tokenId: "t3")
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 14 })
            try old.write { connection in
                for (localId, tenant) in [("plainUser", ""), ("customUser", ""), ("tenantUser", "team-1")] {
                    try connection.execute(
                        """
                        INSERT INTO users (project_id, tenant_id, local_id, email, created_at, password_hash, salt)
                        VALUES (?, ?, ?, ?, ?, 'fakeHash:salt=s:password=secret123', 's')
                        """,
                        [.text(Self.project), .text(tenant), .text(localId), .text("\(localId.lowercased())@example.com"),
                         .integer(issued.millisecondsSinceEpoch - 1000)])
                }
                for (token, localId, tenant, claims) in [
                    (plain, "plainUser", "", nil), (custom, "customUser", "", #"{"role":"admin"}"#),
                    (tenantToken, "tenantUser", "team-1", nil),
                ] {
                    try connection.execute(
                        """
                        INSERT INTO refresh_tokens (token, project_id, tenant_id, local_id, sign_in_provider, extra_claims,
                            issued_at)
                        VALUES (?, ?, ?, ?, 'password', ?, ?)
                        """,
                        [.text(token), .text(Self.project), .text(tenant), .text(localId), SQLiteValue(claims),
                         .integer(issued.millisecondsSinceEpoch)])
                }
            }
            #expect(old.schemaVersion == 14)
        }
        let emulator = try TestEmulator(dataFile: file)
        let refreshed = try emulator.refresh(plain)
        #expect(refreshed.status == 200)
        #expect(refreshed["user_id"] == "plainUser")
        #expect(refreshed["refresh_token"]?.stringValue == plain)

        let withClaims = try emulator.refresh(custom)
        #expect(withClaims["user_id"] == "customUser")
        let payload = try TokenInspection.decode(withClaims["id_token"]?.stringValue).payload
        #expect(payload["role"] == "admin")

        let tenantRefresh = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token?key=test-api-key",
            json: ["grantType": "refresh_token", "refreshToken": .string(tenantToken), "tenantId": "team-1"])
        #expect(tenantRefresh["user_id"] == "tenantUser")
        #expect(try emulator.refresh(tenantToken + "=").errorMessage == "INVALID_REFRESH_TOKEN")

        // New tokens beside the migrated ones, and the old table is gone.
        let fresh = try #require(try emulator.signUp("fresh@example.com")["refreshToken"]?.stringValue)
        #expect(try emulator.refresh(fresh).status == 200)
        // The running emulator's own database: a second one on the file would be refused (it is in use).
        let database = emulator.emulator.environment.store.database
        let tables = try database.read {
            try $0.query("SELECT name FROM sqlite_schema WHERE name = 'refresh_tokens_by_string'")
        }
        #expect(tables.isEmpty)
        let count = try database.read { try $0.queryFirst("SELECT count(*) FROM refresh_tokens")?[0].integer }
        #expect(count == 4)
    }

    /// A version-17 file keeps the whole 32-byte digest; after the upgrade the token refreshes.
    @Test func tokensOfAVersion17FileStillRefresh() throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let issued = TestEmulator.start
        let token = RefreshTokenFormat.encode(
            RefreshTokenRecord(
                token: "", scope: UserScope(projectId: Self.project, tenantId: nil), localId: "oldUser",
                signInProvider: "password", extraClaims: nil, secondFactor: nil, issuedAt: issued),
            tokenId: "t17")
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 17 })
            try old.write { connection in
                try connection.execute(
                    "INSERT INTO users (project_id, tenant_id, local_id, email, created_at) VALUES (?, '', 'oldUser', 'old@example.com', ?)",
                    [.text(Self.project), .integer(issued.millisecondsSinceEpoch - 1000)])
                try connection.execute(
                    """
                    INSERT INTO refresh_tokens (token_sha256, project_id, tenant_id, local_id, sign_in_provider, issued_at)
                    VALUES (?, ?, '', 'oldUser', 'password', ?)
                    """,
                    [.blob(SHA256.hash(token.utf8)), .text(Self.project), .integer(issued.millisecondsSinceEpoch)])
            }
            #expect(old.schemaVersion == 17)
        }
        let emulator = try TestEmulator(dataFile: file)
        let refreshed = try emulator.refresh(token)
        #expect(refreshed.status == 200)
        #expect(refreshed["user_id"] == "oldUser")
        #expect(try emulator.refresh(String(token.dropLast())).errorMessage == "INVALID_REFRESH_TOKEN")
    }

    /// A version-24 file keeps its tokens in a rowid table with a digest index; from migration 25
    /// the digest is the table's key. Its tokens refresh, tenant and claims kept, a cleared
    /// tenant's tokens go, and new tokens join them.
    @Test func tokensOfAVersion24FileStillRefresh() throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let issued = TestEmulator.start
        func token(_ localId: String, tenant: String?, claims: JSONObject?, id: String) -> String {
            RefreshTokenFormat.encode(
                RefreshTokenRecord(
                    token: "", scope: UserScope(projectId: Self.project, tenantId: tenant), localId: localId,
                    signInProvider: "password", extraClaims: claims, secondFactor: nil, issuedAt: issued),
                tokenId: id)
        }
        let plain = token("plainUser", tenant: nil, claims: nil, id: "t1")
        let custom = token("customUser", tenant: nil, claims: ["role": "admin"], id: "t2")
        let tenantToken = token("tenantUser", tenant: "team-1", claims: nil, id: "t3")
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 24 })
            try old.write { connection in
                for (localId, tenant) in [("plainUser", ""), ("customUser", ""), ("tenantUser", "team-1")] {
                    try connection.execute(
                        "INSERT INTO users (project_id, tenant_id, local_id, email, created_at) VALUES (?, ?, ?, ?, ?)",
                        [.text(Self.project), .text(tenant), .text(localId), .text("\(localId.lowercased())@example.com"),
                         .integer(issued.millisecondsSinceEpoch - 1000)])
                }
                for (token, localId, tenant, claims) in [
                    (plain, "plainUser", "", nil), (custom, "customUser", "", #"{"role":"admin"}"#),
                    (tenantToken, "tenantUser", "team-1", nil),
                ] {
                    try connection.execute(
                        """
                        INSERT INTO refresh_tokens (token_sha256, project_id, tenant_id, local_id, sign_in_provider,
                            extra_claims, issued_at)
                        VALUES (?, ?, ?, ?, 'password', ?, ?)
                        """,
                        [.blob(RefreshTokenRepository.digest(of: token)), .text(Self.project), .text(tenant),
                         .text(localId), SQLiteValue(claims), .integer(issued.millisecondsSinceEpoch)])
                }
            }
            #expect(old.schemaVersion == 24)
        }
        let emulator = try TestEmulator(dataFile: file)
        let refreshed = try emulator.refresh(plain)
        #expect(refreshed["user_id"] == "plainUser")
        #expect(refreshed["refresh_token"]?.stringValue == plain)
        let withClaims = try emulator.refresh(custom)
        #expect(try TokenInspection.decode(withClaims["id_token"]?.stringValue).payload["role"] == "admin")
        let tenantRefresh = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token?key=test-api-key",
            json: ["grantType": "refresh_token", "refreshToken": .string(tenantToken), "tenantId": "team-1"])
        #expect(tenantRefresh["user_id"] == "tenantUser")
        #expect(try emulator.refresh(String(plain.dropLast())).errorMessage == "INVALID_REFRESH_TOKEN")

        let fresh = try #require(try emulator.signUp("fresh@example.com")["refreshToken"]?.stringValue)
        #expect(try emulator.refresh(fresh).status == 200)
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(Self.project)/tenants/team-1/accounts").status == 200)
        let afterClear = try emulator.send(
            "POST", "/securetoken.googleapis.com/v1/token?key=test-api-key",
            json: ["grantType": "refresh_token", "refreshToken": .string(tenantToken), "tenantId": "team-1"])
        #expect(afterClear.errorMessage == "INVALID_REFRESH_TOKEN")

        // The running emulator's own database: a second one on the file would be refused (it is in use).
        let database = emulator.emulator.environment.store.database
        let stored = try database.read { try $0.query("SELECT token_sha256 FROM refresh_tokens ORDER BY token_sha256") }
        #expect(stored.map { $0[0].blob } == [plain, custom, fresh].map(RefreshTokenRepository.digest).sorted {
            $0.lexicographicallyPrecedes($1)
        })
        // The digest is the key: no rowid, and no index of its own beside the scope's.
        let indexes = try database.read {
            try $0.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'refresh_tokens' AND sql IS NOT NULL")
        }
        #expect(indexes.map { $0[0].text } == ["refresh_tokens_by_scope"])
        let withoutRowid = try database.read { try $0.queryFirst("SELECT sql FROM sqlite_schema WHERE name = 'refresh_tokens'") }
        #expect(withoutRowid?[0].text?.hasSuffix("WITHOUT ROWID") == true)
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ file: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    }
}
