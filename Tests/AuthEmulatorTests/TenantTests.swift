import AuthEmulator
import Foundation
import JSON
import Testing

@Suite struct TenantTests {
    static let tenants = "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/tenants"
    static let owner = [("Authorization", "Bearer owner")]

    private func create(_ emulator: TestEmulator, _ body: JSONValue) throws -> TestEmulator.Reply {
        try emulator.send("POST", Self.tenants, json: body, headers: Self.owner)
    }

    @Test func createGivesAnIdAndProductionDefaults() throws {
        let emulator = try TestEmulator()
        let created = try create(emulator, ["displayName": "Team-A", "allowPasswordSignup": true])
        #expect(created.status == 200)
        let id = try #require(created["tenantId"]?.stringValue)
        #expect(id.count == 28)
        #expect(created["name"] == .string("projects/\(TestEmulator.project)/tenants/\(id)"))
        #expect(created["allowPasswordSignup"] == true)
        #expect(created["enableEmailLinkSignin"] == false)
        #expect(created["enableAnonymousUser"] == false)
        #expect(created["disableAuth"] == false)
        #expect(created["mfaConfig"] == ["state": "DISABLED", "enabledProviders": []])
        let fetched = try emulator.send("GET", "\(Self.tenants)/\(id)", headers: Self.owner)
        #expect(fetched.json == created.json)
    }

    @Test func anUnknownTenantReadsAsAllEnabledAndItsFirstGetCreatesIt() throws {
        let emulator = try TestEmulator()
        // A tenant with users but no stored row is listed with its implicit defaults.
        #expect(try emulator.admin("accounts", ["localId": "u1"], tenant: "users-only").status == 200)
        let fetched = try emulator.send("GET", "\(Self.tenants)/never-made", headers: Self.owner)
        #expect(fetched["allowPasswordSignup"] == true)
        #expect(fetched["enableAnonymousUser"] == true)
        #expect(fetched["mfaConfig"]?["state"] == "ENABLED")
        // The GET created it, as the official emulator's does.
        let listed = try emulator.send("GET", Self.tenants, headers: Self.owner)["tenants"]?.arrayValue
        #expect(listed?.map { $0["tenantId"] } == ["never-made", "users-only"])
        #expect(listed?.allSatisfy { $0["enableAnonymousUser"] == true } == true)
        #expect(try emulator.send("GET", "\(Self.tenants)/never-made", headers: Self.owner).json == fetched.json)
    }

    @Test func listPagesByTenantId() throws {
        let emulator = try TestEmulator()
        var ids: [String] = []
        for index in 0..<5 { ids.append(try create(emulator, ["displayName": .string("T\(index)")])["tenantId"]!.stringValue!) }
        ids.sort()
        let first = try emulator.send("GET", "\(Self.tenants)?pageSize=2", headers: Self.owner)
        #expect(first["tenants"]?.arrayValue?.map { $0["tenantId"]!.stringValue! } == Array(ids[0..<2]))
        #expect(first["nextPageToken"] == .string(ids[1]))
        let second = try emulator.send("GET", "\(Self.tenants)?pageSize=2&pageToken=\(ids[1])", headers: Self.owner)
        #expect(second["tenants"]?.arrayValue?.map { $0["tenantId"]!.stringValue! } == Array(ids[2..<4]))
        let last = try emulator.send("GET", "\(Self.tenants)?pageSize=2&pageToken=\(ids[3])", headers: Self.owner)
        #expect(last["tenants"]?.arrayValue?.count == 1)
        #expect(last["nextPageToken"] == nil)
        #expect(try emulator.send("GET", "\(Self.tenants)?pageSize=x", headers: Self.owner).status == 400)
    }

    @Test func patchFollowsTheMaskAndAnEmptyMaskReplaces() throws {
        let emulator = try TestEmulator()
        let id = try create(emulator, ["displayName": "Before", "allowPasswordSignup": true])["tenantId"]!.stringValue!
        let masked = try emulator.send(
            "PATCH", "\(Self.tenants)/\(id)?updateMask=displayName,enableAnonymousUser",
            json: ["displayName": "After", "enableAnonymousUser": true, "allowPasswordSignup": false], headers: Self.owner)
        #expect(masked["displayName"] == "After")
        #expect(masked["enableAnonymousUser"] == true)
        #expect(masked["allowPasswordSignup"] == true)
        let replaced = try emulator.send("PATCH", "\(Self.tenants)/\(id)", json: ["displayName": "Only"], headers: Self.owner)
        #expect(replaced["displayName"] == "Only")
        #expect(replaced["allowPasswordSignup"] == false)
        #expect(replaced["enableAnonymousUser"] == false)
        #expect(replaced["tenantId"] == .string(id))
        let bad = try emulator.send(
            "PATCH", "\(Self.tenants)/\(id)?updateMask=disableAuth", json: ["disableAuth": "yes"], headers: Self.owner)
        #expect(bad.status == 400)
        #expect(try emulator.send("GET", "\(Self.tenants)/\(id)", headers: Self.owner)["disableAuth"] == false)
        // A path through a primitive or an array changes nothing (the reference skips it).
        let throughLeaves = try emulator.send(
            "PATCH", "\(Self.tenants)/\(id)?updateMask=displayName.0,mfaConfig.enabledProviders.x",
            json: ["displayName": "x", "mfaConfig": ["enabledProviders": ["PHONE_SMS"]]], headers: Self.owner)
        #expect(throughLeaves["displayName"] == "Only")
        #expect(throughLeaves["mfaConfig"] == ["state": "DISABLED", "enabledProviders": []])
    }

    @Test func deleteDropsTheTenantAndItsUsers() throws {
        let emulator = try TestEmulator()
        let id = try create(emulator, ["displayName": "Gone"])["tenantId"]!.stringValue!
        _ = try emulator.admin("accounts", ["localId": "in-tenant"], tenant: id)
        let deleted = try emulator.send("DELETE", "\(Self.tenants)/\(id)", json: [:], headers: Self.owner)
        #expect(deleted.status == 200)
        #expect(deleted.json == [:])
        #expect(try emulator.send("GET", Self.tenants, headers: Self.owner)["tenants"] == [])
        #expect(try emulator.admin("accounts:lookup", ["localId": ["in-tenant"]], tenant: id)["users"] == nil)
        // Gone for good, as in production (the official emulator recreates it with defaults).
        #expect(try emulator.send("GET", "\(Self.tenants)/\(id)", headers: Self.owner).errorMessage == "TENANT_NOT_FOUND")
        let patch = try emulator.send("PATCH", "\(Self.tenants)/\(id)", json: ["displayName": "Back"], headers: Self.owner)
        #expect(patch.errorMessage == "TENANT_NOT_FOUND")
        #expect(try emulator.send("DELETE", "\(Self.tenants)/\(id)", headers: Self.owner).errorMessage == "TENANT_NOT_FOUND")
        #expect(try emulator.send("GET", Self.tenants, headers: Self.owner)["tenants"] == [])
    }

    @Test func tenantSwitchesGateSignInMethods() throws {
        let emulator = try TestEmulator()
        let id = try create(emulator, ["displayName": "Locked"])["tenantId"]!.stringValue!
        let signUp = try emulator.client("signUp", ["email": "a@example.com", "password": "secret123", "tenantId": .string(id)])
        #expect(signUp.errorMessage == "OPERATION_NOT_ALLOWED")
        #expect(try emulator.client("signUp", ["tenantId": .string(id)]).errorMessage == "ADMIN_ONLY_OPERATION")
        // An admin may still create the user; signing in with the password stays refused.
        #expect(try emulator.admin("accounts", ["email": "a@example.com", "password": "secret123"], tenant: id).status == 200)
        let signIn = try emulator.client(
            "signInWithPassword", ["email": "a@example.com", "password": "secret123", "tenantId": .string(id)])
        #expect(signIn.errorMessage == "PASSWORD_LOGIN_DISABLED")
        let link = try emulator.client(
            "sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "http://x.test/", "tenantId": .string(id)])
        #expect(link.errorMessage == "OPERATION_NOT_ALLOWED")

        _ = try emulator.send(
            "PATCH", "\(Self.tenants)/\(id)?updateMask=allowPasswordSignup,disableAuth",
            json: ["allowPasswordSignup": true, "disableAuth": true], headers: Self.owner)
        #expect(try emulator.client(
            "signInWithPassword", ["email": "a@example.com", "password": "secret123", "tenantId": .string(id)]).errorMessage == "PROJECT_DISABLED")
        #expect(try emulator.client("createAuthUri", ["identifier": "a@example.com", "continueUri": "http://x.test/", "tenantId": .string(id)])
            .errorMessage == "PROJECT_DISABLED")
        _ = try emulator.send("PATCH", "\(Self.tenants)/\(id)?updateMask=disableAuth", json: ["disableAuth": false], headers: Self.owner)
        #expect(try emulator.client(
            "signInWithPassword", ["email": "a@example.com", "password": "secret123", "tenantId": .string(id)]).status == 200)
    }

    @Test func tenantMFAConfigDecidesWhetherSecondFactorsAreAsked() throws {
        let emulator = try TestEmulator()
        let id = try create(emulator, ["displayName": "NoMFA", "allowPasswordSignup": true])["tenantId"]!.stringValue!
        _ = try emulator.admin(
            "accounts",
            ["email": "m@example.com", "password": "secret123", "emailVerified": true, "mfaInfo": [["phoneInfo": "+15555550100"]]],
            tenant: id)
        let body: JSONValue = ["email": "m@example.com", "password": "secret123", "tenantId": .string(id)]
        let plain = try emulator.client("signInWithPassword", body)
        #expect(plain["idToken"] != nil)
        #expect(plain["mfaPendingCredential"] == nil)
        _ = try emulator.send(
            "PATCH", "\(Self.tenants)/\(id)?updateMask=mfaConfig", json: ["mfaConfig": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]]],
            headers: Self.owner)
        #expect(try emulator.client("signInWithPassword", body)["mfaPendingCredential"] != nil)
    }

    @Test func enrollingASecondFactorNeedsTheTenantsMFA() throws {
        let emulator = try TestEmulator()
        let id = try create(emulator, ["displayName": "NoMFA", "allowPasswordSignup": true])["tenantId"]!.stringValue!
        _ = try emulator.admin("accounts", ["email": "e@example.com", "password": "secret123", "emailVerified": true], tenant: id)
        let signIn = try emulator.client("signInWithPassword", ["email": "e@example.com", "password": "secret123", "tenantId": .string(id)])
        let start = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start?key=k",
            json: ["idToken": signIn["idToken"]!, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"], "tenantId": .string(id)])
        #expect(start.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    }
}
