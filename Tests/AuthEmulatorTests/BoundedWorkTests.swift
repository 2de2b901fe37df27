import AuthEmulator
import Foundation
import JOSE
import JSON
import Testing

/// Work a request may cause is bounded (issue 13 item 5): fake provider ids with keys are capped,
/// a provider keeps a few keys however often it rotates, and imported hashes too slow to verify
/// are refused at import rather than stalling every sign-in.
@Suite struct BoundedWorkTests {
    static func kids(_ emulator: TestEmulator, _ providerId: String) throws -> [String] {
        try emulator.send("GET", "/emulator/v1/idp/\(providerId)/jwks")["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? []
    }

    /// The shared pre-made RSA keys are generated on first use; made here, outside any request's
    /// read timeout, on a loaded machine.
    init() throws {
        _ = try TestProviderKeys().next(.rs256)
    }

    @Test func providerIdsWithKeysAreCappedAndTheKnownOnesKeepWorking() throws {
        let emulator = try TestEmulator(fakeProviderLimits: FakeProviderLimits(providers: 2))
        #expect(try Self.kids(emulator, "one.example").count == 1)
        #expect(try FederationTests.mint(emulator, "two.example", ["email": "t@example.com"]).status == 200)

        let third = try emulator.send("GET", "/emulator/v1/idp/three.example/jwks")
        #expect(third.status == 429)
        #expect(third["error"]?["status"] == "RESOURCE_EXHAUSTED")
        #expect(third.errorMessage?.hasPrefix("RESOURCE_EXHAUSTED : The fake identity providers already hold keys for 2 provider ids") == true)
        #expect(try emulator.send("POST", "/emulator/v1/idp/three.example/tokens", json: [:]).status == 429)
        #expect(try emulator.send("POST", "/emulator/v1/idp/three.example/keys:rotate", json: [:]).status == 429)
        // Any id still has a discovery document, and the providers that hold keys go on signing,
        // with another algorithm too.
        #expect(try emulator.send("GET", "/emulator/v1/idp/three.example/.well-known/openid-configuration").status == 200)
        let minted = try FederationTests.mint(emulator, "one.example", ["email": "o@example.com", "alg": "ES256"])
        #expect(minted.status == 200)
        #expect(try FederationTests.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "").status == 200)
    }

    @Test func rotationKeepsTheNewestKeysAndDropsTheOldest() throws {
        let emulator = try TestEmulator()
        var rotated: [String] = []
        let first = try FederationTests.mint(emulator, "google.com", ["email": "g@example.com", "alg": "ES256"])
        let firstKid = try CompactJWT(parsing: first["idToken"]?.stringValue ?? "").keyID
        for _ in 0..<5 {
            let reply = try emulator.send("POST", "/emulator/v1/idp/google.com/keys:rotate", json: ["alg": "ES256"])
            rotated.append(try #require(reply["kid"]?.stringValue))
        }
        // Three ES256 keys (the newest signs, two still verify) beside the RS256 key the JWKS made.
        let published = Set(try Self.kids(emulator, "google.com"))
        #expect(published.count == 4)
        #expect(published.isSuperset(of: rotated.suffix(3)))
        #expect(published.isDisjoint(with: rotated.prefix(2) + [firstKid].compactMap { $0 }))
        let newest = try FederationTests.mint(emulator, "google.com", ["email": "g@example.com", "alg": "ES256"])
        #expect(try CompactJWT(parsing: newest["idToken"]?.stringValue ?? "").keyID == rotated.last)
        // A token signed with a dropped key is one whose kid we no longer know: strict mode refuses it.
        let strict = try TestEmulator(idpTokenMode: .strict)
        let old = try FederationTests.mint(strict, "google.com", ["email": "g@example.com", "alg": "ES256"])
        for _ in 0..<3 { _ = try strict.send("POST", "/emulator/v1/idp/google.com/keys:rotate", json: ["alg": "ES256"]) }
        let refused = try FederationTests.signIn(strict, postBody: old["postBody"]?.stringValue ?? "")
        #expect(refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    }

    /// A real cost-4 bcrypt hash with its cost digits replaced: well-formed, and never computed here.
    static func bcrypt(cost: Int) -> String {
        let hash = BCrypt.hash(Array("pw".utf8), salt: Array(repeating: 7, count: 16), cost: 4)
        let digits = cost < 10 ? "0\(cost)" : "\(cost)"
        let encoded = hash.replacingOccurrences(of: "$04$", with: "$\(digits)$")
        return Base64URL.encode(Array(encoded.utf8))
    }

    @Test func batchCreateRefusesSlowHashesPerEntry() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.admin("accounts:batchCreate", [
            "hashAlgorithm": "BCRYPT",
            "users": [
                ["localId": "fast", "email": "fast@example.com", "passwordHash": .string(Self.bcrypt(cost: 12))],
                ["localId": "slow", "email": "slow@example.com", "passwordHash": .string(Self.bcrypt(cost: 31))],
            ],
        ])
        #expect(reply.status == 200)
        let errors = reply["error"]?.arrayValue ?? []
        #expect(errors.count == 1)
        #expect(errors.first?["index"] == 1)
        #expect(errors.first?["message"]?.stringValue?.hasPrefix(
            "INVALID_PASSWORD_HASH : The bcrypt cost 31 is above the emulator's limit of 12") == true)
        let users = try emulator.admin("accounts:lookup", ["localId": ["fast", "slow"]])["users"]?.arrayValue ?? []
        #expect(users.compactMap { $0["localId"]?.stringValue } == ["fast"])
    }

    @Test func batchCreateRefusesScryptBeyondTheMemoryAndTimeLimits() throws {
        let emulator = try TestEmulator()
        func create(_ parameters: JSONObject) throws -> TestEmulator.Reply {
            var body = parameters
            body["hashAlgorithm"] = "STANDARD_SCRYPT"
            body["dkLen"] = 32
            body["users"] = [["localId": "s", "passwordHash": "AAAA", "salt": "AAAA"]]
            return try emulator.admin("accounts:batchCreate", .object(body))
        }
        // 128 · 2^20 · 8 bytes = 1 GiB.
        let memory = try create(["cpuMemCost": 1_048_576, "blockSize": 8, "parallelization": 1])
        #expect(memory.status == 400)
        #expect(memory.errorMessage == "INVALID_MEMORY_COST : STANDARD_SCRYPT with N = 1048576 and r = 8 needs 1024 MiB (128 · N · r), above the emulator's limit of 128 MiB.")
        // 32 MiB, but 2^15 · 8 · 16 = 2^22 rounds of work.
        let time = try create(["cpuMemCost": 32768, "blockSize": 8, "parallelization": 16])
        #expect(time.status == 400)
        #expect(time.errorMessage == "INVALID_MEMORY_COST : STANDARD_SCRYPT with N · r · p = 4194304 is above the emulator's limit of 2097152 (about a second per sign-in).")
        #expect(try create(["cpuMemCost": 16384, "blockSize": 8, "parallelization": 1]).status == 200)
        // Firebase's scrypt and PBKDF keep their own ranges.
        let rounds = try emulator.admin("accounts:batchCreate", [
            "hashAlgorithm": "PBKDF2_SHA256", "rounds": 120_001, "users": [["localId": "p"]],
        ])
        #expect(rounds.errorMessage == "INVALID_ROUNDS")
        let firebase = try emulator.admin("accounts:batchCreate", [
            "hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 15, "signerKey": "AAAA", "users": [["localId": "f"]],
        ])
        #expect(firebase.errorMessage == "INVALID_MEMORY_COST")
    }

    @Test func startUpImportSkipsSlowHashesAndLogsWhy() throws {
        let directory = try ImportExportTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let accounts: JSONObject = [
            "kind": "identitytoolkit#DownloadAccountResponse",
            "users": [
                ["localId": "kept", "email": "kept@example.com"],
                ["localId": "slow", "email": "slow@example.com", "passwordHash": .string(Self.bcrypt(cost: 20)),
                 "authEmulatorPasswordHash": ["hashAlgorithm": "BCRYPT"]],
            ],
        ]
        try Data(JSONValue.object(accounts).encoded()).write(to: URL(fileURLWithPath: directory + "/accounts.json"))
        let emulator = try TestEmulator(importDirectory: directory)
        #expect(try ImportExportTests.users(emulator).compactMap { $0["localId"]?.stringValue } == ["kept"])
        #expect(emulator.logLines.all.contains { $0.contains("Skipped importing user 1") && $0.contains("bcrypt cost 20") })
    }
}
