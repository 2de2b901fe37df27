import AuthEmulator
import Foundation
import JSON
import Testing

/// `--import`, export (on exit and from a `--data` file) in the official layout (reference §12.2–§12.3),
/// with a hand-built official export in `fixtures/import/official-export`.
@Suite struct ImportExportTests {
    static let officialExport = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../fixtures/import/official-export").standardizedFileURL.path
    static let tenant = "tenant-one-x1y2z"

    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("import-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func users(_ emulator: TestEmulator, tenant: String? = nil) throws -> [JSONObject] {
        let query = tenant.map { "&tenantId=\($0)" } ?? ""
        let reply = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchGet?maxResults=-1\(query)",
            headers: [("Authorization", "Bearer owner")])
        return reply["users"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    /// A user as a round trip must keep it: without the fields batchCreate resets (reference §12.3).
    static func comparable(_ user: JSONObject) -> JSONObject {
        var copy = user
        for key in ["validSince", "passwordUpdatedAt", "lastRefreshAt"] { copy[key] = nil }
        return copy
    }

    static func signIn(_ emulator: TestEmulator, _ email: String, _ password: String, tenant: String? = nil) throws -> TestEmulator.Reply {
        var body: JSONObject = ["email": .string(email), "password": .string(password)]
        if let tenant { body["tenantId"] = .string(tenant) }
        return try emulator.client("signInWithPassword", .object(body))
    }

    @Test func importsTheOfficialExport() throws {
        let emulator = try TestEmulator(importDirectory: Self.officialExport)
        let users = try Self.users(emulator)
        #expect(users.compactMap { $0["localId"]?.stringValue } == [
            "idp-user-000000000000000002", "mfa-user-000000000000000004", "phone-user-00000000000000003",
            "pw-user-0000000000000000001",
        ])
        let byId = Dictionary(uniqueKeysWithValues: users.map { ($0["localId"]?.stringValue ?? "", $0) })
        let password = try #require(byId["pw-user-0000000000000000001"])
        #expect(password["customAttributes"] == "{\"role\":\"admin\"}")
        #expect(password["createdAt"] == "1700000000000")
        #expect(password["lastLoginAt"] == "1700000100000")
        #expect(password["emailVerified"] == true)
        let idp = try #require(byId["idp-user-000000000000000002"])
        #expect(idp["providerUserInfo"]?.arrayValue?.first?["rawId"] == "109876543210987654321")
        #expect(byId["phone-user-00000000000000003"]?["phoneNumber"] == "+15555550123")
        #expect(byId["phone-user-00000000000000003"]?["disabled"] == true)
        #expect(byId["mfa-user-000000000000000004"]?["mfaInfo"]?.arrayValue?.first?["mfaEnrollmentId"] == "enrollment00000000000000001")
        #expect(try Self.users(emulator, tenant: Self.tenant).first?["tenantId"] == .string(Self.tenant))

        #expect(try Self.signIn(emulator, "password.user@example.com", "hunter22")["localId"] == "pw-user-0000000000000000001")
        #expect(try Self.signIn(emulator, "password.user@example.com", "hunter23").errorMessage == "INVALID_PASSWORD")
        #expect(try Self.signIn(emulator, "mfa.user@example.com", "second-factor")["mfaPendingCredential"] != nil)
        #expect(try Self.signIn(emulator, "tenant.user@example.com", "tenant-secret", tenant: Self.tenant)["localId"]
            == "tenant-user-0000000000000005")
    }

    @Test func roundTripKeepsUsersAndPasswords() throws {
        let first = try TestEmulator(importDirectory: Self.officialExport)
        // A user with a production hash rides along (scrypt, the firebase/scrypt README example).
        _ = try first.admin("accounts:batchCreate", [
            "hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14, "saltSeparator": "Bw==",
            "signerKey": "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
            "users": [["localId": "scrypt-user", "email": "scrypt@example.com", "salt": "42xEC-ixf3L2lw==",
                       "passwordHash": "lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ=="]],
        ])
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/export"
        try first.emulator.export(to: out)
        for file in ["firebase-export-metadata.json", "auth_export/accounts.json", "auth_export/accounts-\(Self.tenant).json",
                     "auth_export/config.json"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(file)"), "\(file)")
        }
        let second = try TestEmulator(importDirectory: out)
        // Exported again (before sign-ins move lastLoginAt) over the same directory: it is replaced.
        try second.emulator.export(to: out)
        #expect(try Self.users(second).map(Self.comparable) == (try Self.users(first).map(Self.comparable)))
        #expect(try Self.users(second, tenant: Self.tenant).map(Self.comparable)
            == (try Self.users(first, tenant: Self.tenant).map(Self.comparable)))
        #expect(try Self.signIn(second, "password.user@example.com", "hunter22")["localId"] == "pw-user-0000000000000000001")
        #expect(try Self.signIn(second, "scrypt@example.com", "user1password")["localId"] == "scrypt-user")
        #expect(try Self.signIn(second, "scrypt@example.com", "hunter22").errorMessage == "INVALID_PASSWORD")

        let third = try TestEmulator(importDirectory: out)
        #expect(try Self.users(third).map(Self.comparable) == (try Self.users(first).map(Self.comparable)))
    }

    @Test func importRefusesWhatItCannotRead() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: (any Error).self) { try TestEmulator(importDirectory: directory + "/missing") }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: directory + "/accounts.json"))
        #expect(throws: (any Error).self) { try TestEmulator(importDirectory: directory) }
        try Data("{\"users\": []}".utf8).write(to: URL(fileURLWithPath: directory + "/accounts.json"))
        let empty = try TestEmulator(importDirectory: directory)
        #expect(try Self.users(empty).isEmpty)
    }

    @Test func parsesTheFlags() throws {
        let run = try CommandLineOptions.parse(["--import", "in", "--export-on-exit=out"])
        guard case .run(let command) = run else { Issue.record("not a run"); return }
        let configuration = command.configuration
        #expect(configuration.importDirectory == "in")
        #expect(configuration.exportOnExitDirectory == "out")
        #expect(try CommandLineOptions.parse(["export", "--data", "f.db", "--out", "dir"])
            == .export(ExportCommand(dataFile: "f.db", outDirectory: "dir", projectId: nil)))
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["export", "--data", "f.db"]) }
        #expect(try CommandLineOptions.parse(["export", "--data", "f.db", "--out", "dir", "--project", "my-app"])
            == .export(ExportCommand(dataFile: "f.db", outDirectory: "dir", projectId: "my-app")))
        #expect(throws: CommandLineOptions.UsageError.self) {
            try CommandLineOptions.parse(["export", "--data", "f.db", "--out", "dir", "--project", "bad project"])
        }
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["--import"]) }
    }

    @Test func exportsAStoppedDataFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dataFile = directory + "/state.db"
        do {
            let emulator = try TestEmulator(dataFile: dataFile)
            _ = try emulator.signUp("saved@example.com", "saved-pass")
            emulator.emulator.stop()
        }
        let count = try ExportCommand(dataFile: dataFile, outDirectory: directory + "/out", projectId: nil).run()
        #expect(count == 1)
        let reloaded = try TestEmulator(importDirectory: directory + "/out")
        #expect(try Self.signIn(reloaded, "saved@example.com", "saved-pass")["email"] == "saved@example.com")
        #expect(throws: (any Error).self) {
            try ExportCommand(dataFile: directory + "/none.db", outDirectory: directory + "/out2", projectId: nil).run()
        }
    }
}
