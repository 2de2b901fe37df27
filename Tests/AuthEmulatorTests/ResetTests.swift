@testable import AuthEmulator
import Foundation
import HTTPTestSupport
import JSON
import Testing

/// `POST /emulator/v1/projects/{p}:reset` and `POST /emulator/v1/reset` (DESIGN §3): every table
/// and in-memory cache a project owns is back to a fresh start; `DELETE …/accounts` keeps to accounts.
@Suite struct ResetTests {
    static let project = TestEmulator.project
    static let other = "demo-other"
    static let owner = [("Authorization", "Bearer owner")]
    static let v2 = "/identitytoolkit.googleapis.com/v2/projects"

    private func reset(_ emulator: TestEmulator, _ projectId: String = ResetTests.project) throws -> TestEmulator.Reply {
        try emulator.send("POST", "/emulator/v1/projects/\(projectId):reset")
    }

    /// Tables with a `project_id` column and how many rows each holds for `projectId`.
    private func rowsByTable(_ emulator: TestEmulator, _ projectId: String) throws -> [String: Int64] {
        try emulator.emulator.environment.store.read { store in
            let tables = try store.connection.query(
                """
                SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
                WHERE m.type = 'table' AND p.name = 'project_id' ORDER BY m.name
                """, []
            ).compactMap { $0[0].text }
            var counts: [String: Int64] = [:]
            for table in tables {
                counts[table] = try store.connection.queryFirst(
                    "SELECT COUNT(*) FROM \(table) WHERE project_id = ?", [.text(projectId)])?[0].integer ?? 0
            }
            return counts
        }
    }

    /// A row in every per-project table: users (with a provider link and a refresh token, one in a
    /// tenant), a live and a deleted tenant, an email code and its message, an SMS code, a phone
    /// proof, relay settings, config, a provider config and an Apple revocation.
    private func seedEveryTable(_ emulator: TestEmulator) throws -> (refreshToken: String, deletedTenant: String) {
        let signUp = try emulator.signUp("ada@example.com")
        let claims = #"{"sub":"g-1","email":"grace@example.com"}"#
        #expect(try FederationTests.signIn(emulator, postBody: "id_token=\(claims)&providerId=google.com").status == 200)
        #expect(try emulator.client("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": signUp["idToken"]!]).status == 200)
        #expect(try emulator.client("sendVerificationCode", ["phoneNumber": "+16505550100"]).status == 200)
        #expect(try emulator.admin("accounts", ["localId": "in-tenant"], tenant: "team-1").status == 200)
        let tenants = "\(Self.v2)/\(Self.project)/tenants"
        let deleted = try #require(try emulator.send("POST", tenants, json: ["displayName": "Gone"], headers: Self.owner)["tenantId"]?.stringValue)
        #expect(try emulator.send("DELETE", "\(tenants)/\(deleted)", headers: Self.owner).status == 200)
        #expect(try emulator.send("GET", "\(tenants)/\(deleted)", headers: Self.owner).errorMessage == "TENANT_NOT_FOUND")
        #expect(try emulator.send(
            "PATCH", "/emulator/v1/projects/\(Self.project)/privateRelay", json: ["dailyLimit": 3]).status == 200)
        #expect(try emulator.send(
            "PATCH", "/emulator/v1/projects/\(Self.project)/config", json: ["signIn": ["allowDuplicateEmails": true]]).status == 200)
        #expect(try emulator.send(
            "POST", "\(Self.v2)/\(Self.project)/defaultSupportedIdpConfigs?idpId=apple.com", json: ["clientId": "com.example.only"],
            headers: Self.owner).status == 200)
        try emulator.emulator.environment.store.write { store in
            try store.verificationSessions.insertTemporaryProof(
                "proof-1", phoneNumber: "+16505550100", scope: UserScope(projectId: Self.project),
                expiresAt: TestEmulator.start.adding(seconds: 3600))
            try store.fakeProviders.insertRevocation(.init(code: "c1", tokenType: .authorizationCode, sub: "s1", projectId: Self.project, revokedAt: TestEmulator.start))
        }
        return (try #require(signUp["refreshToken"]?.stringValue), deleted)
    }

    /// A user and a config in another project, which a reset of `project` must leave alone.
    private func seedOtherProject(_ emulator: TestEmulator) throws {
        #expect(try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.other)/accounts", json: ["localId": "other-user"],
            headers: Self.owner).status == 200)
        #expect(try emulator.send(
            "PATCH", "/emulator/v1/projects/\(Self.other)/config", json: ["signIn": ["allowDuplicateEmails": true]]).status == 200)
    }

    @Test func aProjectResetLeavesNoRowOfItInAnyTableAndAnotherProjectKeepsItsOwn() throws {
        let emulator = try TestEmulator()
        _ = try seedEveryTable(emulator)
        try seedOtherProject(emulator)
        // Every table a project owns holds a row of it: a new table must be seeded here, and cleared.
        let before = try rowsByTable(emulator, Self.project)
        #expect(before.filter { $0.value == 0 }.keys.sorted() == [])
        #expect(before.count >= 12)

        let answer = try reset(emulator)
        #expect(answer.status == 200)
        #expect(answer.json == [:])
        #expect(try rowsByTable(emulator, Self.project).filter { $0.value != 0 } == [:])
        let otherRows = try rowsByTable(emulator, Self.other)
        #expect(otherRows["users"] == 1)
        #expect(otherRows["project_config"] == 1)
    }

    @Test func afterAResetEveryRouteAnswersAsOnAFreshEmulator() throws {
        let emulator = try TestEmulator()
        let fresh = try TestEmulator()
        let (refreshToken, deletedTenant) = try seedEveryTable(emulator)
        let minted = try FederationTests.mint(emulator, "google.com", ["email": "minted@example.com"])
        let jwks = try emulator.send("GET", "/emulator/v1/idp/google.com/jwks").json
        #expect(try reset(emulator).status == 200)

        let p = Self.project
        let owner = Self.owner
        let sameOnBoth: [(String, String, [(String, String)])] = [
            ("GET", "/emulator/v1/projects/\(p)/config", []),
            ("GET", "/emulator/v1/projects/\(p)/privateRelay", []),
            ("GET", "/emulator/v1/projects/\(p)/messages", []),
            ("GET", "/emulator/v1/projects/\(p)/oobCodes", []),
            ("GET", "/emulator/v1/projects/\(p)/verificationCodes", []),
            ("GET", "/emulator/v1/projects/\(p)/tenants/team-1/oobCodes", []),
            ("GET", "/emulator/v1/idp/apple.com/revocations", []),
            ("GET", "\(Self.v2)/\(p)/tenants", owner),
            ("GET", "\(Self.v2)/\(p)/defaultSupportedIdpConfigs", owner),
            ("GET", "\(Self.v2)/\(p)/config", owner),
        ]
        for (method, path, headers) in sameOnBoth {
            let after = try emulator.send(method, path, headers: headers)
            #expect(after.json == (try fresh.send(method, path, headers: headers)).json, "\(method) \(path)")
        }
        // The deleted tenant's id reads as never seen: its GET creates it, as upstream's does.
        let recreated = try emulator.send("GET", "\(Self.v2)/\(p)/tenants/\(deletedTenant)", headers: owner)
        #expect(recreated.status == 200)
        #expect(recreated["allowPasswordSignup"] == true)
        #expect(try emulator.refresh(refreshToken).errorMessage == "INVALID_REFRESH_TOKEN")
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "0")
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false], tenant: "team-1")["recordsCount"] == "0")
        // The fake providers keep their keys: a token minted before the reset still signs in.
        #expect(try emulator.send("GET", "/emulator/v1/idp/google.com/jwks").json == jwks)
        #expect(try FederationTests.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "").status == 200)
    }

    @Test func cachedSettingsAreForgottenWithTheRowsTheyCame() throws {
        let emulator = try TestEmulator()
        let p = Self.project
        // Each setting is read once before the reset, so it sits in its cache.
        #expect(try emulator.send(
            "PATCH", "/emulator/v1/projects/\(p)/config", json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]]).status == 200)
        let resetForNobody: JSONValue = ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]
        #expect(try emulator.client("sendOobCode", resetForNobody).status == 200)
        #expect(try emulator.send(
            "PATCH", "\(Self.v2)/\(p)/tenants/closed?updateMask=allowPasswordSignup", json: ["allowPasswordSignup": false],
            headers: Self.owner).status == 200)
        let tenantSignUp: JSONValue = ["email": "t@example.com", "password": "secret123", "tenantId": "closed"]
        let refused = try emulator.client("signUp", tenantSignUp).errorMessage
        #expect(refused?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(refused ?? "nil")")
        #expect(try emulator.send(
            "POST", "\(Self.v2)/\(p)/defaultSupportedIdpConfigs?idpId=apple.com", json: ["clientId": "com.example.only"],
            headers: Self.owner).status == 200)
        let apple = try FederationTests.mint(emulator, "apple.com", ["email": "a@example.com", "audience": "com.example.other"])
        #expect(try FederationTests.signIn(emulator, postBody: apple["postBody"]?.stringValue ?? "").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)

        #expect(try reset(emulator).status == 200)
        #expect(try emulator.client("sendOobCode", resetForNobody).errorMessage == "EMAIL_NOT_FOUND")
        #expect(try emulator.client("signUp", tenantSignUp).status == 200)
        #expect(try FederationTests.signIn(emulator, postBody: apple["postBody"]?.stringValue ?? "").status == 200)
    }

    @Test func aWaitLeftOpenEndsWithTheResetAndNeverAnswersWithTheNextTestsMail() async throws {
        let emulator = try TestEmulator()
        let waiters = emulator.emulator.environment.outboxWaiters
        let waiting = Task.detached {
            try emulator.send("GET", "/emulator/v1/projects/\(Self.project)/messages?waitSeconds=30")
        }
        // Polled, not slept: the request reaches the emulator when the machine lets it.
        for _ in 0..<400 where waiters.count == 0 { try await Task.sleep(for: .milliseconds(25)) }
        #expect(waiters.count == 1)
        #expect(try reset(emulator).status == 200)
        // The next test's mail: without the reset ending the wait, it would be the answer.
        _ = try emulator.signUp("next@example.com")
        #expect(try emulator.admin("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "next@example.com"]).status == 200)
        let answer = try await waiting.value
        #expect(answer.status == 200)
        #expect(answer["messages"] == [])
        #expect(waiters.count == 0)
    }

    @Test func theGlobalResetClearsEveryProjectAndTheClockButNotTheProviders() throws {
        let emulator = try TestEmulator()
        _ = try seedEveryTable(emulator)
        try seedOtherProject(emulator)
        let relay = try FederationTests.mint(emulator, "apple.com", ["email": "hidden@example.com", "hideEmail": true])
        #expect(try emulator.send("POST", "/emulator/v1/clock:advance", json: ["seconds": 7200]).status == 200)
        let answer = try emulator.send("POST", "/emulator/v1/reset")
        #expect(answer.status == 200)
        #expect(answer.json == [:])
        for projectId in [Self.project, Self.other] {
            #expect(try rowsByTable(emulator, projectId).filter { $0.value != 0 } == [:], "\(projectId)")
        }
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == .string(TestEmulator.start.rfc3339))
        // The relay address belongs to the Apple account, which stays.
        let addresses = try emulator.send("GET", "/emulator/v1/idp/apple.com/relay")["addresses"]?.arrayValue ?? []
        #expect(addresses.map { $0["address"] } == [relay["email"]])
        #expect(try emulator.send("POST", "/emulator/v1/reset", json: ["projectId": "x"]).errorMessage?.hasPrefix("INVALID_ARGUMENT : unknown field") == true)
    }

    @Test func deletingAccountsKeepsToAccountsAsUpstreamDoes() throws {
        let emulator = try TestEmulator()
        let (_, deletedTenant) = try seedEveryTable(emulator)
        let before = try rowsByTable(emulator, Self.project)
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(Self.project)/accounts").status == 200)
        var after = try rowsByTable(emulator, Self.project)
        // The project's own users go (the tenant's user stays, with its tenant's DELETE to clear it).
        #expect(after["users"] == 1)
        #expect(after["provider_links"] == 0)
        for table in ["users", "provider_links", "refresh_tokens"] { after[table] = nil }
        var expected = before
        for table in ["users", "provider_links", "refresh_tokens"] { expected[table] = nil }
        #expect(after == expected)
        #expect(try emulator.send("GET", "\(Self.v2)/\(Self.project)/tenants/\(deletedTenant)", headers: Self.owner).errorMessage == "TENANT_NOT_FOUND")
    }

    @Test func theSignInPageListsTheProjectsAccountsSoDeletingThemEmptiesIt() throws {
        let emulator = try TestEmulator()
        let query = "apiKey=k&providerId=google.com&authType=signInViaPopup&eventId=E1&appName=app"
        let page = { () throws -> String in
            let response = try RawHTTPConnection(port: emulator.emulator.port).exchange("GET", "/emulator/auth/handler?\(query)")
            #expect(response.status == 200)
            return String(decoding: response.body, as: UTF8.self)
        }
        let minted = try FederationTests.mint(emulator, "google.com", ["email": "listed@example.com", "name": "Listed Person"])
        #expect(try !page().contains("listed@example.com"))
        #expect(try FederationTests.signIn(emulator, postBody: minted["postBody"]?.stringValue ?? "").status == 200)
        // The provider's own record of the account names it, as minted.
        #expect(try page().contains("Listed Person"))
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(Self.project)/accounts").status == 200)
        #expect(try !page().contains("listed@example.com"))
    }
}
