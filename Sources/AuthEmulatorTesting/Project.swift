/// One project of the emulator (or one tenant of it): its reset, users, outbox and relay
/// settings. Client calls (`auth`) always land in the emulator's own project, as an app's API
/// key does; the other projects are for Admin SDK and backend tests side by side.
public struct Project: Sendable {
    public let emulator: Emulator
    public let id: String
    /// The tenant this view is scoped to, or nil for the project itself.
    public let tenantId: String?

    init(emulator: Emulator, id: String, tenantId: String? = nil) {
        self.emulator = emulator
        self.id = id
        self.tenantId = tenantId
    }

    /// `/identitytoolkit.googleapis.com/v1/projects/{p}[/tenants/{t}]`
    var adminPath: String {
        "/identitytoolkit.googleapis.com/v1/projects/\(id)" + (tenantId.map { "/tenants/\($0)" } ?? "")
    }

    /// The project back to a fresh start: accounts (its tenants' too), tenants, codes, outbox,
    /// relay settings, config (`POST /emulator/v1/projects/{p}:reset`). Other projects and the
    /// clock are untouched.
    public func reset() async throws {
        try await emulator.http.json("POST", "/emulator/v1/projects/\(id):reset")
    }

    /// Removes the accounts of the project, or of this tenant, and nothing else (as the official
    /// emulator's `DELETE …/accounts`).
    public func deleteAccounts() async throws {
        let scope = "/emulator/v1/projects/\(id)" + (tenantId.map { "/tenants/\($0)" } ?? "")
        try await emulator.http.json("DELETE", scope + "/accounts")
    }

    /// A tenant of this project, created with all-enabled defaults if it does not exist yet.
    public func tenant(_ tenantId: String) async throws -> Project {
        try await emulator.http.json("GET", "/identitytoolkit.googleapis.com/v2/projects/\(id)/tenants/\(tenantId)",
                                     headers: Emulator.owner)
        return Project(emulator: emulator, id: id, tenantId: tenantId)
    }

    /// A new tenant with an id the emulator picks (for a test that wants one no other test uses).
    public func createTenant(displayName: String = "test") async throws -> Project {
        let created = try await emulator.http.json(
            "POST", "/identitytoolkit.googleapis.com/v2/projects/\(id)/tenants",
            body: ["displayName": .string(displayName), "allowPasswordSignup": true, "enableEmailLinkSignin": true],
            headers: Emulator.owner)
        guard let name = created["name"]?.stringValue, let tenantId = name.split(separator: "/").last else {
            throw EmulatorKitError(.unexpectedAnswer, "creating a tenant answered no name: \(created)")
        }
        return Project(emulator: emulator, id: id, tenantId: String(tenantId))
    }

    public var outbox: Outbox { Outbox(project: self) }
    public var users: Users { Users(project: self) }
    public var relay: PrivateRelaySettings { PrivateRelaySettings(project: self) }

    /// The client REST API for this tenant (only the emulator's own project takes client calls).
    public var auth: AuthClient { AuthClient(emulator: emulator, tenantId: tenantId) }
}
