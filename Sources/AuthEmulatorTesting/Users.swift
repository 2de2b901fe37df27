import Foundation

/// A user to seed through the official import route (`accounts:batchCreate`).
public struct SeedUser: Sendable {
    public var uid: String
    public var email: String?
    /// Stored as the emulator stores passwords; the user signs in with it.
    public var password: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var phoneNumber: String?
    public var disabled: Bool
    /// Custom claims, as an Admin SDK's `setCustomUserClaims` sets them.
    public var customClaims: [String: JSONValue]?
    /// Linked providers, e.g. `.init(providerId: "google.com", rawId: "1234", email: …)`.
    public var providers: [LinkedProvider]
    /// Second factors already enrolled (phone numbers).
    public var phoneFactors: [String]

    public struct LinkedProvider: Sendable {
        public var providerId: String
        public var rawId: String
        public var email: String?
        public var displayName: String?

        public init(providerId: String, rawId: String, email: String? = nil, displayName: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.displayName = displayName
        }
    }

    public init(uid: String = SeedUser.newUID(), email: String? = nil, password: String? = nil, emailVerified: Bool = false,
                displayName: String? = nil, phoneNumber: String? = nil, disabled: Bool = false,
                customClaims: [String: JSONValue]? = nil, providers: [LinkedProvider] = [], phoneFactors: [String] = []) {
        self.uid = uid
        self.email = email
        self.password = password
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.customClaims = customClaims
        self.providers = providers
        self.phoneFactors = phoneFactors
    }

    /// A 28-character uid, as Firebase makes them.
    public static func newUID() -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<28).map { _ in letters.randomElement()! })
    }

    var json: JSONValue {
        var user: [String: JSONValue] = ["localId": .string(uid), "emailVerified": .bool(emailVerified), "disabled": .bool(disabled)]
        func put(_ name: String, _ value: String?) { if let value { user[name] = .string(value) } }
        put("email", email)
        put("rawPassword", password)
        put("displayName", displayName)
        put("phoneNumber", phoneNumber)
        if let customClaims { user["customAttributes"] = .string(JSONValue.object(customClaims).text) }
        if !providers.isEmpty {
            user["providerUserInfo"] = .array(providers.map { provider in
                var info: [String: JSONValue] = ["providerId": .string(provider.providerId), "rawId": .string(provider.rawId)]
                if let email = provider.email { info["email"] = .string(email) }
                if let name = provider.displayName { info["displayName"] = .string(name) }
                return .object(info)
            })
        }
        if !phoneFactors.isEmpty {
            user["mfaInfo"] = .array(phoneFactors.map { ["phoneInfo": .string($0), "displayName": .string($0)] })
        }
        return .object(user)
    }
}

/// A user as `accounts:lookup` answers it; `json` holds all of it.
public struct UserRecord: Sendable {
    public let json: JSONValue

    public var uid: String { json["localId"]?.stringValue ?? "" }
    public var email: String? { json["email"]?.stringValue }
    public var emailVerified: Bool { json["emailVerified"]?.boolValue ?? false }
    public var displayName: String? { json["displayName"]?.stringValue }
    public var phoneNumber: String? { json["phoneNumber"]?.stringValue }
    public var disabled: Bool { json["disabled"]?.boolValue ?? false }
    public var providerIds: [String] {
        json["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
    }
    /// The custom claims (`customAttributes`), parsed.
    public var customClaims: JSONValue? {
        json["customAttributes"]?.stringValue.flatMap { try? JSONValue(parsing: Data($0.utf8)) }
    }
    /// Enrolled second factors (`mfaInfo`), each with `mfaEnrollmentId`.
    public var secondFactors: [JSONValue] { json["mfaInfo"]?.arrayValue ?? [] }
}

/// Seeding and reading users of one project (or tenant) through the admin REST API, with no
/// Admin SDK.
public struct Users: Sendable {
    public let project: Project

    /// Imports users in one `accounts:batchCreate` call; any user the emulator refuses fails the
    /// whole call with its index and reason (the others may have been written: reset to undo).
    @discardableResult
    public func seed(_ users: [SeedUser]) async throws -> [SeedUser] {
        let path = project.adminPath + "/accounts:batchCreate"
        let answer = try await project.emulator.http.json("POST", path, body: ["users": .array(users.map(\.json))],
                                                          headers: Emulator.owner)
        if let refusals = answer["error"]?.arrayValue, let first = refusals.first {
            let index = first["index"]?.intValue ?? -1
            let message = first["message"]?.stringValue ?? first.text
            throw EmulatorError(status: 400, message: "user \(index) (\(users.indices.contains(index) ? users[index].uid : "?")): \(message)",
                                request: "POST \(path)")
        }
        return users
    }

    /// Seeds one user.
    @discardableResult
    public func seed(_ user: SeedUser) async throws -> SeedUser {
        try await seed([user]).first!
    }

    /// The user with this uid, or nil.
    public func lookup(uid: String) async throws -> UserRecord? {
        try await lookup(["localId": [.string(uid)]])
    }

    /// The user with this email, or nil.
    public func lookup(email: String) async throws -> UserRecord? {
        try await lookup(["email": [.string(email)]])
    }

    private func lookup(_ body: JSONValue) async throws -> UserRecord? {
        let answer = try await project.emulator.http.json("POST", project.adminPath + "/accounts:lookup", body: body,
                                                          headers: Emulator.owner)
        return answer["users"]?[0].map(UserRecord.init(json:))
    }

    /// Every user of the project (or tenant), in uid order.
    public func all() async throws -> [UserRecord] {
        var users: [UserRecord] = []
        var pageToken: String?
        repeat {
            let answer = try await project.emulator.http.json(
                "GET", project.adminPath + "/accounts:batchGet", query: [("maxResults", "1000"), ("nextPageToken", pageToken)],
                headers: Emulator.owner)
            let page = answer["users"]?.arrayValue ?? []
            users += page.map(UserRecord.init(json:))
            pageToken = page.isEmpty ? nil : answer["nextPageToken"]?.stringValue
        } while pageToken != nil
        return users
    }
}
