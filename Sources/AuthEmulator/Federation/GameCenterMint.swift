import JOSE
import JSON

/// What a caller asks the fake Game Center to sign (`POST /emulator/v1/idp/gc.apple.com/tokens`,
/// DESIGN §3 "Game Center"). Every field is optional.
struct GameCenterMintRequest: Sendable {
    /// The legacy `playerID` (`G:…`), signed when there is no team player id.
    var playerId: String?
    /// `T:_…`: what GameKit signs since iOS 13.5, and what Firebase keys the user on.
    var teamPlayerId: String?
    var gamePlayerId: String?
    var displayName: String?
    var bundleId = GameCenter.defaultBundleId
    /// Milliseconds since the epoch; the emulator clock's now by default (an old one makes a stale signature).
    var timestamp: UInt64?

    init() {}

    init(_ body: RequestBody) throws(AuthError) {
        playerId = try body.nonEmptyString("playerId")
        teamPlayerId = try body.nonEmptyString("teamPlayerId")
        gamePlayerId = try body.nonEmptyString("gamePlayerId")
        displayName = try body.nonEmptyString("displayName")
        bundleId = try body.nonEmptyString("bundleId") ?? GameCenter.defaultBundleId
        if let value = body.value("timestamp"), !value.isNull {
            timestamp = try Self.timestamp(value)
        }
    }

    /// A number or digit string of milliseconds, as the SDK sends it, or an RFC 3339 date-time.
    private static func timestamp(_ value: JSONValue) throws(AuthError) -> UInt64 {
        if let milliseconds = value.int64Value ?? value.stringValue.flatMap({ Int64($0) }), milliseconds > 0 {
            return UInt64(milliseconds)
        }
        if let text = value.stringValue, let instant = RFC3339.parse(text), instant.millisecondsSinceEpoch > 0 {
            return UInt64(instant.millisecondsSinceEpoch)
        }
        throw AuthError.invalid(
            "INVALID_ARGUMENT : timestamp must be milliseconds since the epoch (a positive number) or an RFC 3339 date-time, not \(value.compactString.prefix(64)).")
    }
}

/// A signed Game Center identity: the fields `GameCenterAuthProvider.getCredential()` hands the
/// SDK, and the `signInWithGameCenter` body the SDK makes of them.
struct GameCenterIdentity: Sendable {
    let playerId: String
    let teamPlayerId: String?
    let gamePlayerId: String?
    let displayName: String
    let bundleId: String
    let publicKeyUrl: String
    let signature: [UInt8]
    let salt: [UInt8]
    let timestamp: UInt64

    /// The body as the Apple SDK encodes it (`SignInWithGameCenterRequest`): `playerId` always
    /// (empty from GameKit's modern API), the binary fields base64url without padding, the
    /// timestamp a number, the newer ids only when there are some.
    var requestBody: JSONObject {
        var body: JSONObject = [
            "playerId": .string(playerId), "publicKeyUrl": .string(publicKeyUrl),
            "signature": .string(Base64URL.encode(signature)), "salt": .string(Base64URL.encode(salt)),
            "timestamp": .int(Int64(timestamp)),
        ]
        body.setIfPresent("teamPlayerId", teamPlayerId.map { .string($0) })
        body.setIfPresent("gamePlayerId", gamePlayerId.map { .string($0) })
        body["displayName"] = .string(displayName)
        return body
    }

    /// The mint's answer: the request's fields, the bundle id they are signed for, and the body.
    var json: JSONObject {
        var answer = requestBody
        answer["bundleId"] = .string(bundleId)
        answer["requestBody"] = .object(requestBody)
        return answer
    }
}

/// Signs Game Center identities with the provider's active key. Nothing is stored: the key (made
/// on first use) is the fake provider's only state.
struct GameCenterMint {
    let environment: AuthEnvironment
    let origin: String

    func mint(_ request: GameCenterMintRequest) throws -> GameCenterIdentity {
        let now = environment.clock.now()
        let key = try environment.keyring.activeKey(of: GameCenter.providerId, algorithm: .rs256, now: now)
        // GameKit's modern API gives team and game player ids and an empty legacy one; a caller who
        // names only a legacy id gets the pre-iOS 13.5 form, which has no others.
        let legacyOnly = request.playerId != nil && request.teamPlayerId == nil && request.gamePlayerId == nil
        let teamPlayerId = legacyOnly ? nil : request.teamPlayerId ?? "T:_" + Hex.lowercase(SecureRandom.bytes(16))
        let gamePlayerId = legacyOnly ? nil : request.gamePlayerId ?? teamPlayerId.map { Self.gamePlayerId(team: $0, bundleId: request.bundleId) }
        let playerId = request.playerId ?? ""
        let signedId = teamPlayerId ?? playerId
        let timestamp = request.timestamp ?? UInt64(max(0, now.millisecondsSinceEpoch))
        let salt = SecureRandom.bytes(GameCenter.mintedSaltLength)
        let signature = try key.key.sign(
            GameCenter.signedPayload(playerId: signedId, bundleId: request.bundleId, timestamp: timestamp, salt: salt))
        return GameCenterIdentity(
            playerId: playerId, teamPlayerId: teamPlayerId, gamePlayerId: gamePlayerId,
            displayName: request.displayName ?? "Player \(Hex.lowercase(SHA256.hash(Array(signedId.utf8))).prefix(4))",
            bundleId: request.bundleId, publicKeyUrl: GameCenter.publicKeyUrl(origin: origin, kid: key.kid),
            signature: signature, salt: salt, timestamp: timestamp)
    }

    /// Apple's game player id is per game: the same team player in the same game has the same one.
    static func gamePlayerId(team: String, bundleId: String) -> String {
        "A:_" + Hex.lowercase(Array(SHA256.hash(Array("\(team)|\(bundleId)".utf8)).prefix(16)))
    }

    static func run(_ request: OperationRequest) throws -> JSONObject {
        try GameCenterMint(environment: request.environment, origin: request.origin).mint(GameCenterMintRequest(request.body)).json
    }
}
