import Foundation

/// A fake identity provider of the emulator: `apple.com`, `facebook.com`, `google.com`,
/// `yahoo.com`, or any other id (a generic OIDC provider).
public struct IdentityProvider: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let apple: IdentityProvider = "apple.com"
    public static let facebook: IdentityProvider = "facebook.com"
    public static let google: IdentityProvider = "google.com"
    public static let yahoo: IdentityProvider = "yahoo.com"
    /// Any other provider id gets a generic OIDC provider, e.g. `.oidc("oidc.example")`.
    public static func oidc(_ id: String) -> IdentityProvider { IdentityProvider(rawValue: id) }
}

/// What `POST /emulator/v1/idp/{idp}/tokens` answered: a signed token shaped like the provider's.
public struct MintedToken: Sendable {
    public let json: JSONValue

    public var providerId: String { json["providerId"]?.stringValue ?? "" }
    /// The signed JWT (Apple, Facebook Limited Login, Google, Yahoo, OIDC).
    public var idToken: String { json["idToken"]?.stringValue ?? "" }
    /// The opaque access token (Facebook classic login signs in with it).
    public var accessToken: String? { json["accessToken"]?.stringValue }
    /// Apple's authorization code, for `revokeToken`.
    public var authorizationCode: String? { json["authorizationCode"]?.stringValue }
    public var sub: String { json["sub"]?.stringValue ?? "" }
    /// The email as the token carries it: a private relay address when Apple hid it.
    public var email: String? { json["email"]?.stringValue }
    /// Apple with `hideEmail`: the real address behind the relay address.
    public var realEmail: String? { json["realEmail"]?.stringValue }
    /// `providerId=…&id_token=…[&nonce=<raw>]`, ready for `signInWithIdp`.
    public var postBody: String { json["postBody"]?.stringValue ?? "" }
    /// Sentences about what looked unintended (a nonce that looks hashed already).
    public var warnings: [String] { json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    /// The token's claims, decoded (not verified).
    public var claims: JSONValue { (try? JWT.claims(of: idToken)) ?? .null }

    /// `postBody`, with the name Apple hands the app on first authorization as the Apple SDK
    /// sends it (`&user={"name":{"firstName":…,"lastName":…}}`).
    public func postBody(appleName: PersonName?) -> String {
        guard let appleName else { return postBody }
        let name: JSONValue = ["name": ["firstName": .string(appleName.firstName), "lastName": .string(appleName.lastName)]]
        return postBody + "&user=" + name.text
    }

    /// The classic Facebook login credential: `providerId=facebook.com&access_token=…`.
    public var accessTokenPostBody: String { "providerId=\(providerId)&access_token=\(accessToken ?? "")" }
}

/// An Apple token revocation the fake provider recorded (`revokeToken`): an authorization code
/// (`tokenType` "CODE", what the Apple SDK revokes) or an access token ("ACCESS_TOKEN", the JS SDK's).
public struct AppleRevocation: Sendable, Decodable, Equatable {
    public let sub: String
    public let tokenType: String
    public let authorizationCode: String?
    public let accessToken: String?
    public let projectId: String
    public let revokedAt: String
}

/// A private relay address the fake Apple provider handed out.
public struct RelayAddress: Sendable, Decodable, Equatable {
    public let address: String
    public let forwardTo: String
    public let forwarding: Bool
}

/// The emulator's fake identity providers (shared by all its projects; no credentials).
public struct FakeProviders: Sendable {
    public let emulator: Emulator

    /// Mints a token. `nonce` is the raw nonce: Apple's and Facebook's token carry its SHA-256, the
    /// others the nonce itself, and `postBody` carries the raw one. `hideEmail` (Apple) puts a
    /// private relay address forwarding to `email` in the token. `claims` are merged last.
    public func mint(
        _ provider: IdentityProvider, email: String? = nil, sub: String? = nil, emailVerified: Bool? = nil,
        hideEmail: Bool? = nil, name: String? = nil, picture: String? = nil, nonce: String? = nil,
        hashedNonce: String? = nil, audience: String? = nil, expiresInSeconds: Int? = nil, alg: String? = nil,
        claims: [String: JSONValue]? = nil
    ) async throws -> MintedToken {
        var body: [String: JSONValue] = [:]
        func put(_ name: String, _ value: JSONValue?) { if let value { body[name] = value } }
        put("email", email.map(JSONValue.string))
        put("sub", sub.map(JSONValue.string))
        put("emailVerified", emailVerified.map(JSONValue.bool))
        put("hideEmail", hideEmail.map(JSONValue.bool))
        put("name", name.map(JSONValue.string))
        put("picture", picture.map(JSONValue.string))
        put("nonce", nonce.map(JSONValue.string))
        put("hashedNonce", hashedNonce.map(JSONValue.string))
        put("audience", audience.map(JSONValue.string))
        put("expiresInSeconds", expiresInSeconds.map { .number(Double($0)) })
        put("alg", alg.map(JSONValue.string))
        put("claims", claims.map(JSONValue.object))
        return MintedToken(json: try await emulator.http.json("POST", "/emulator/v1/idp/\(provider.rawValue)/tokens", body: .object(body)))
    }

    /// A new signing key for the provider (`RS256`, or `ES256`); answers its `kid`. The old key stays in the JWKS.
    public func rotateKeys(_ provider: IdentityProvider, alg: String? = nil) async throws -> String {
        let answer = try await emulator.http.json("POST", "/emulator/v1/idp/\(provider.rawValue)/keys:rotate",
                                                  body: alg.map { ["alg": .string($0)] } ?? [:])
        guard let kid = answer["kid"]?.stringValue else {
            throw EmulatorKitError(.unexpectedAnswer, "keys:rotate answered no kid: \(answer)")
        }
        return kid
    }

    /// The provider's JWKS (`{"keys": […]}`).
    public func jwks(_ provider: IdentityProvider) async throws -> JSONValue {
        try await emulator.http.json("GET", "/emulator/v1/idp/\(provider.rawValue)/jwks")
    }

    /// The Apple token revocations recorded, oldest first as the route lists them.
    public func appleRevocations() async throws -> [AppleRevocation] {
        try (try await emulator.http.json("GET", "/emulator/v1/idp/apple.com/revocations")["revocations"] ?? []).decode()
    }

    /// The private relay addresses handed out.
    public func relayAddresses() async throws -> [RelayAddress] {
        try (try await emulator.http.json("GET", "/emulator/v1/idp/apple.com/relay")["addresses"] ?? []).decode()
    }

    /// Turns the relay's forwarding for one address on or off, as the user does in their Apple ID settings.
    @discardableResult
    public func setRelayForwarding(_ address: String, _ forwarding: Bool) async throws -> RelayAddress {
        try await emulator.http.json("PATCH", "/emulator/v1/idp/apple.com/relay/\(EmulatorHTTP.escape(address))",
                                     body: ["forwarding": .bool(forwarding)]).decode()
    }

    /// Mints a Game Center identity (`POST /emulator/v1/idp/gc.apple.com/tokens`): what
    /// `GKLocalPlayer` hands the Apple SDK, signed by the fake Game Center key.
    public func mintGameCenter(
        playerId: String? = nil, teamPlayerId: String? = nil, gamePlayerId: String? = nil, displayName: String? = nil,
        bundleId: String? = nil, timestamp: Int? = nil
    ) async throws -> GameCenterIdentity {
        var body: [String: JSONValue] = [:]
        for (name, value) in [("playerId", playerId), ("teamPlayerId", teamPlayerId), ("gamePlayerId", gamePlayerId),
                              ("displayName", displayName), ("bundleId", bundleId)] {
            if let value { body[name] = .string(value) }
        }
        if let timestamp { body["timestamp"] = .number(Double(timestamp)) }
        return GameCenterIdentity(json: try await emulator.http.json("POST", "/emulator/v1/idp/gc.apple.com/tokens", body: .object(body)))
    }
}

/// A minted Game Center identity: the fields the Apple SDK sends to `signInWithGameCenter`.
public struct GameCenterIdentity: Sendable {
    public let json: JSONValue

    public var playerId: String? { json["playerId"]?.stringValue }
    public var teamPlayerId: String? { json["teamPlayerId"]?.stringValue }
    public var gamePlayerId: String? { json["gamePlayerId"]?.stringValue }
    public var publicKeyUrl: String? { json["publicKeyUrl"]?.stringValue }
    public var signature: String? { json["signature"]?.stringValue }
    public var salt: String? { json["salt"]?.stringValue }
    public var timestamp: Int? { json["timestamp"]?.intValue }
    /// The app the signature is for.
    public var bundleId: String? { json["bundleId"]?.stringValue }
    /// The whole `signInWithGameCenter` body, ready to post.
    public var requestBody: JSONValue { json["requestBody"] ?? .null }
}

extension AuthClient {
    /// `accounts:signInWithGameCenter` with a minted identity's `requestBody` (`idToken` links),
    /// from the app it was signed for: the Apple SDK sends its bundle id as `X-Ios-Bundle-Identifier`.
    public func signIn(with identity: GameCenterIdentity, idToken: String? = nil) async throws -> SignInResult {
        var body = identity.requestBody.objectValue ?? [:]
        if let idToken { body["idToken"] = .string(idToken) }
        let headers = identity.bundleId.map { ["X-Ios-Bundle-Identifier": $0] } ?? [:]
        return SignInResult(json: try await call("accounts:signInWithGameCenter", body, headers: headers))
    }
}

/// Reading a JWT's parts without verifying it.
public enum JWT {
    public static func claims(of token: String) throws -> JSONValue { try segment(1, of: token) }
    public static func header(of token: String) throws -> JSONValue { try segment(0, of: token) }

    private static func segment(_ index: Int, of token: String) throws -> JSONValue {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw EmulatorKitError(.invalidArgument, "not a JWT (\(parts.count) segments)") }
        var text = String(parts[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { throw EmulatorKitError(.invalidArgument, "a JWT segment is not base64url") }
        return try JSONValue(parsing: data)
    }
}
