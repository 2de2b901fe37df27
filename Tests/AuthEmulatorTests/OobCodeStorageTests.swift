@testable import AuthEmulator
import Foundation
import JSON
import SQLiteStore
import Testing

/// Oob codes are kept without an index by scope (migration 26): the `oobCodes` listing reads the
/// table and sorts it, oldest first and in issue order within a millisecond, as the index gave.
@Suite struct OobCodeStorageTests {
    static let project = TestEmulator.project

    /// A version-24 file with codes of two scopes, some in the same millisecond, a later one issued
    /// with an earlier clock: after the upgrade each scope lists its own in the same order, a code
    /// still signs in once, and new codes list after the old ones.
    @Test func codesOfAVersion24FileListAndWorkAsBefore() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("codes-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let at = TestEmulator.start.millisecondsSinceEpoch
        // (code, tenant, created_at), in issue order.
        let codes: [(String, String, Int64)] = [
            ("zeta", "", at), ("alpha", "", at), ("tenant-code", "t1", at), ("mid", "", at + 5), ("early", "", at - 5),
            ("beta", "", at),
        ]
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 24 })
            try old.write { connection in
                for (code, tenant, createdAt) in codes {
                    try connection.execute(
                        """
                        INSERT INTO oob_codes (code, project_id, tenant_id, request_type, email, oob_link, created_at, expires_at)
                        VALUES (?, ?, ?, 'EMAIL_SIGNIN', ?, ?, ?, ?)
                        """,
                        [.text(code), .text(Self.project), .text(tenant), .text("\(code)@example.com"),
                         .text("http://localhost/emulator/action?oobCode=\(code)"), .integer(createdAt),
                         .integer(createdAt + 6 * 3_600_000)])
                }
            }
            #expect(old.schemaVersion == 24)
        }
        let emulator = try TestEmulator(dataFile: file)
        func listed(_ path: String = "") throws -> [String] {
            try emulator.send("GET", "/emulator/v1/projects/\(Self.project)\(path)/oobCodes")["oobCodes"]?.arrayValue?
                .compactMap { $0["oobCode"]?.stringValue } ?? []
        }
        #expect(try listed() == ["early", "zeta", "alpha", "beta", "mid"])
        #expect(try listed("/tenants/t1") == ["tenant-code"])

        let signedIn = try emulator.client("signInWithEmailLink", ["email": "alpha@example.com", "oobCode": "alpha"])
        #expect(signedIn.status == 200)
        #expect(try emulator.client("signInWithEmailLink", ["email": "alpha@example.com", "oobCode": "alpha"]).errorMessage
            == "INVALID_OOB_CODE")
        emulator.clock.advance(seconds: 1)
        _ = try emulator.client(
            "sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "https://app.example.com/"])
        let afterSend = try listed()
        #expect(afterSend.dropLast() == ["early", "zeta", "beta", "mid"])
        #expect(afterSend.count == 5)

        // The running emulator's own database: a second one on the file would be refused (it is in use).
        let database = emulator.emulator.environment.store.database
        let indexes = try database.read {
            try $0.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'oob_codes'")
        }
        #expect(indexes.map { $0[0].text } == ["sqlite_autoindex_oob_codes_1"])
    }
}
