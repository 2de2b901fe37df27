import JOSE
import JSON

/// A `signInWithGameCenter` credential, read and verified before any write (a refused credential
/// changes nothing). Production verifies every request against Apple's certificate, and the official
/// emulator has no Game Center at all (501), so no test relies on a lax form: the signature is
/// checked in both `--idp-tokens` modes.
struct GameCenterCredential: Sendable {
    /// The legacy `playerID`, when the request has a non-empty one.
    let playerId: String?
    let teamPlayerId: String?
    let gamePlayerId: String?
    let displayName: String?

    /// What the user is keyed on: the team player id, as production prefers, else the legacy one.
    var rawId: String { teamPlayerId ?? playerId ?? "" }

    /// A request with both ids moves a user linked by the legacy id to the team one (production's
    /// migration for SDKs before 10.5.0).
    var legacyIdToMigrate: String? {
        guard let playerId, let teamPlayerId, playerId != teamPlayerId else { return nil }
        return playerId
    }

    var providerLink: ProviderUserInfo {
        ProviderUserInfo(providerId: GameCenter.providerId, rawId: rawId, federatedId: rawId, displayName: displayName)
    }

    static func verify(_ request: OperationRequest) throws -> GameCenterCredential {
        let body = request.body
        let credential = GameCenterCredential(
            playerId: try body.nonEmptyString("playerId"), teamPlayerId: try body.nonEmptyString("teamPlayerId"),
            gamePlayerId: try body.nonEmptyString("gamePlayerId"), displayName: try body.nonEmptyString("displayName"))
        guard !credential.rawId.isEmpty else {
            throw GameCenter.invalid("teamPlayerId (or the legacy playerId) is required: the player GameKit signed for.")
        }
        guard let url = try body.nonEmptyString("publicKeyUrl") else {
            throw GameCenter.invalid("publicKeyUrl is required: the URL of the certificate the signature was made with.")
        }
        let kid = try GameCenter.keyID(fromPublicKeyUrl: url, request: request)
        guard let published = try request.environment.keyring.publishedKey(kid: kid), published.providerId == GameCenter.providerId
        else {
            throw GameCenter.invalid("publicKeyUrl names no certificate of the fake Game Center (no key \(kid.prefix(64))).")
        }
        guard let signatureText = try body.nonEmptyString("signature") else { throw GameCenter.invalid("signature is required.") }
        let signature = try GameCenter.binary(signatureText, field: "signature")
        guard let saltText = try body.nonEmptyString("salt") else { throw GameCenter.invalid("salt is required.") }
        let salt = try GameCenter.binary(saltText, field: "salt")
        guard GameCenter.saltLengths.contains(salt.count) else {
            throw GameCenter.invalid(
                "salt must be \(GameCenter.saltLengths.lowerBound) to \(GameCenter.saltLengths.upperBound) bytes (GameKit's are \(GameCenter.mintedSaltLength)), not \(salt.count).")
        }
        guard let timestamp = try body.int64("timestamp") else {
            throw GameCenter.invalid("timestamp is required: milliseconds since the epoch when GameKit signed.")
        }
        guard timestamp > 0 else { throw GameCenter.invalid("timestamp must be positive, not \(timestamp).") }

        let bundleIds = try candidateBundleIds(request)
        let signedField = credential.teamPlayerId != nil ? "teamPlayerId" : "playerId"
        let verifies = bundleIds.contains { bundleId in
            published.key.verify(
                signature: signature,
                over: GameCenter.signedPayload(
                    playerId: credential.rawId, bundleId: bundleId, timestamp: UInt64(timestamp), salt: salt),
                algorithm: .rs256)
        }
        guard verifies else {
            let source = request.iosBundleId != nil ? "from X-Ios-Bundle-Identifier" : "no X-Ios-Bundle-Identifier header was sent"
            throw GameCenter.invalid(
                "Invalid signature. It does not verify over \(signedField) ‖ bundle id ‖ timestamp ‖ salt with the certificate at publicKeyUrl, for bundle id \(bundleIds.joined(separator: " or ")) (\(source)).")
        }
        try checkAge(timestamp, now: request.environment.clock.now())
        return credential
    }

    /// The app's bundle id: the `X-Ios-Bundle-Identifier` header the Apple SDK sends (production
    /// requires it), which must be one of the project's `gc.apple.com` bundle ids when it set some.
    /// Without the header: those bundle ids, or the one the mint signs for by default.
    private static func candidateBundleIds(_ request: OperationRequest) throws -> [String] {
        let environment = request.environment
        let configured = try environment.providerAudiences.audiences(of: GameCenter.providerId, in: request.scope, environment: environment)
        guard let header = request.iosBundleId, !header.isEmpty else {
            return configured.isEmpty ? [GameCenter.defaultBundleId] : configured
        }
        guard configured.isEmpty || configured.contains(header) else {
            throw GameCenter.invalid(
                "The bundle id \(header.prefix(200)) (X-Ios-Bundle-Identifier) is not one of the project's Game Center apps: \(configured.joined(separator: ", ")).")
        }
        return [header]
    }

    private static func checkAge(_ timestamp: Int64, now: Instant) throws(AuthError) {
        let signedAt = Instant(millisecondsSinceEpoch: timestamp)
        let ageMilliseconds = now.millisecondsSinceEpoch - timestamp
        if ageMilliseconds > GameCenter.maximumAgeSeconds * 1000 {
            throw GameCenter.invalid(
                "timestamp \(timestamp) (\(signedAt.rfc3339)) is \(ageMilliseconds / 1000) s old; the emulator takes Game Center signatures for \(GameCenter.maximumAgeSeconds) s (its clock says \(now.rfc3339)).")
        }
        if -ageMilliseconds > GameCenter.allowedFutureSeconds * 1000 {
            throw GameCenter.invalid(
                "timestamp \(timestamp) (\(signedAt.rfc3339)) is in the future; the emulator clock says \(now.rfc3339).")
        }
    }
}

/// `accounts:signInWithGameCenter` (v3 `signInWithGameCenter`, Apple SDK wire §3.16): sign-in,
/// sign-up, linking (`idToken`) and re-authentication with a Game Center signature the fake Game
/// Center made. The answer is the SDK's `SignInWithGameCenterResponse`; no second factor is asked
/// for (the SDK cannot take one here).
enum SignInWithGameCenter {
    static func run(_ request: OperationRequest) throws -> OperationResult {
        try request.requireEnabledBeforeFields()
        let environment = request.environment
        try environment.providerAudiences.checkEnabled(GameCenter.providerId, in: request.scope, environment: environment)
        let credential = try GameCenterCredential.verify(request)
        let linkingIdToken = try request.body.nonEmptyString("idToken")
        let newLocalId = environment.identifiers.alphanumeric(28)

        let decide = { (transaction: AccountsTransaction) throws -> BlockingDraft in
            try decideUser(credential, linkingIdToken: linkingIdToken, newLocalId: newLocalId, in: transaction)
        }
        // Linking signs in too: beforeSignIn runs for it, as for signInWithIdp.
        let blocking = try BlockingFunctions.run(
            request, [.beforeCreate, .beforeSignIn], signInMethod: GameCenter.providerId, draft: decide)

        return try request.writeGrantingTokensAnswer { transaction in
            try transaction.requireEnabled()
            var decided = try decide(transaction)
            try blocking.apply(to: &decided.user)
            decided.user.lastLoginAt = transaction.now
            var fields: JSONObject = ["localId": .string(decided.user.localId)]
            fields.setIfPresent("playerId", credential.playerId.map { .string($0) })
            fields.setIfPresent("teamPlayerId", credential.teamPlayerId.map { .string($0) })
            fields.setIfPresent("gamePlayerId", credential.gamePlayerId.map { .string($0) })
            fields.setIfPresent("displayName", (decided.user.displayName ?? credential.displayName).map { .string($0) })
            fields["isNewUser"] = .bool(decided.isNew)
            let tokens = try transaction.saveGrantingTokens(
                for: &decided.user, signInProvider: GameCenter.providerId, extraClaims: blocking.sessionClaims)
            return TokenAnswer(fields: fields, tokens: tokens)
        }
    }

    /// The user the credential signs into, with its `gc.apple.com` link set: the signed-in user
    /// when linking, the player's user, or a new one. Worked out the same way in the blocking
    /// functions' draft (a read) and in the write.
    private static func decideUser(
        _ credential: GameCenterCredential, linkingIdToken: String?, newLocalId: String, in transaction: AccountsTransaction
    ) throws -> BlockingDraft {
        let users = transaction.users
        let scope = transaction.scope
        var linked = try users.user(providerId: GameCenter.providerId, rawId: credential.rawId, in: scope)
        if linked == nil, let legacy = credential.legacyIdToMigrate {
            linked = try users.user(providerId: GameCenter.providerId, rawId: legacy, in: scope)
        }
        var user: UserRecord
        var isNew = false
        if let linkingIdToken {
            user = try transaction.authenticate(idToken: linkingIdToken).user
            if let linked, linked.localId != user.localId { throw AuthError.invalid("FEDERATED_USER_ID_ALREADY_LINKED") }
        } else if let linked {
            user = linked
        } else {
            user = UserRecord(localId: newLocalId, scope: scope, createdAt: transaction.now)
            user.displayName = credential.displayName
            isNew = true
        }
        // Checked before anything is written: a refused sign-in changes nothing.
        guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
        user.upsertProvider(credential.providerLink)
        return BlockingDraft(user: user, isNew: isNew)
    }
}
