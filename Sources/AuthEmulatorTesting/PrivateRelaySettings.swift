/// A project's settings for Apple's private email relay (`/emulator/v1/projects/{p}/privateRelay`).
public struct PrivateRelaySettings: Sendable {
    public let project: Project

    public struct Settings: Sendable, Decodable, Equatable {
        /// Addresses and whole domains (`@shop.example`) registered with Apple.
        public let registeredSenders: [String]
        /// Domains whose mail fails the simulated SPF check.
        public let spfFailingDomains: [String]?
        /// Relayed messages an address takes in 24 hours of emulator time.
        public let dailyLimit: Int?
    }

    var path: String { "/emulator/v1/projects/\(project.id)/privateRelay" }

    public func get() async throws -> Settings {
        try await project.emulator.http.json("GET", path).decode()
    }

    /// Changes what is given and keeps the rest.
    @discardableResult
    public func update(registeredSenders: [String]? = nil, spfFailingDomains: [String]? = nil,
                       dailyLimit: Int? = nil) async throws -> Settings {
        var body: [String: JSONValue] = [:]
        if let registeredSenders { body["registeredSenders"] = .array(registeredSenders.map(JSONValue.string)) }
        if let spfFailingDomains { body["spfFailingDomains"] = .array(spfFailingDomains.map(JSONValue.string)) }
        if let dailyLimit { body["dailyLimit"] = .number(Double(dailyLimit)) }
        return try await project.emulator.http.json("PATCH", path, body: .object(body)).decode()
    }
}
