import JOSE
import JSON

/// Builds Firebase ID tokens. They are unsigned (`alg: none`, empty signature) because the Node
/// Admin SDK in emulator mode accepts nothing else (reference admin-sdk-wire §1).
enum IDTokenMinter {
    static let lifetimeSeconds: Int64 = 3600

    /// The payload as a `JSONObject`: the definition of the claims, their values and their order,
    /// which `IDTokenClaims.encoded()` writes straight to bytes. Kept as the reference that the
    /// writer is tested against, and for the rare payload the writer hands back (a custom claim
    /// named like a reserved one).
    ///
    /// Claims in the reference emulator's order: profile, custom claims, extra claims, then the
    /// reserved claims that neither can override.
    static func payload(_ token: IDTokenClaims) -> JSONObject {
        let user = token.user
        var claims = JSONObject()
        claims.setIfPresent("name", user.displayName.map { .string($0) })
        claims.setIfPresent("picture", user.photoUrl.map { .string($0) })
        if let custom = user.customClaims { claims.merge(custom) }
        if let extraClaims = token.extraClaims { claims.merge(extraClaims) }
        claims.setIfPresent("email", user.email.map { .string($0) })
        claims.setIfPresent("email_verified", user.emailVerified.map { .bool($0) })
        claims.setIfPresent("phone_number", user.phoneNumber.map { .string($0) })
        if token.signInProvider == SignInProvider.anonymous { claims["provider_id"] = "anonymous" }
        claims["auth_time"] = .int(token.authTime)
        claims["user_id"] = .string(user.localId)

        var firebase: JSONObject = [
            "identities": .object(identities(of: user)), "sign_in_provider": .string(token.signInProvider),
        ]
        if let secondFactor = token.secondFactor {
            firebase.setIfPresent("sign_in_second_factor", secondFactor["provider"])
            firebase.setIfPresent("second_factor_identifier", secondFactor["identifier"])
        }
        firebase.setIfPresent("tenant", user.scope.tenantId.map { .string($0) })
        firebase.setIfPresent("sign_in_attributes", token.signInAttributes)
        claims["firebase"] = .object(firebase)

        claims["iat"] = .int(token.now.secondsSinceEpoch)
        claims["exp"] = .int(token.now.secondsSinceEpoch + lifetimeSeconds)
        claims["aud"] = .string(user.scope.projectId)
        claims["iss"] = .string("https://securetoken.google.com/\(user.scope.projectId)")
        claims["sub"] = .string(user.localId)
        return claims
    }

    /// `firebase.identities`: the email, then every linked identity but `password`, then the phone.
    static func identities(of user: IDTokenClaims.Subject) -> JSONObject {
        var identities = JSONObject()
        if let email = user.email { identities["email"] = [.string(email)] }
        // `providerUserInfo` but its derived `password` entry, without building the entries.
        for link in user.providers where link.providerId != SignInProvider.password {
            identities[link.providerId] = [.string(link.rawId)]
        }
        if let phoneNumber = user.phoneNumber { identities["phone"] = [.string(phoneNumber)] }
        return identities
    }
}

/// One ID token's claims as granted: what it reads from the user, taken inside the transaction,
/// and the sign-in's details. Written to JSON (and base64url, and with `--id-tokens signed`
/// signed) after the commit, outside the writer lock, which every other write waits for.
struct IDTokenClaims: Sendable {
    /// The user fields an ID token carries: a handful of a `UserRecord`'s, so a grant copies
    /// those rather than the whole record.
    struct Subject: Sendable {
        let localId: String
        let scope: UserScope
        let displayName: String?
        let photoUrl: String?
        let customAttributes: String?
        let email: String?
        let emailVerified: Bool?
        let phoneNumber: String?
        let providers: [ProviderUserInfo]
        let lastLoginAt: Instant?
        let lastRefreshAt: Instant?

        init(_ user: UserRecord) {
            localId = user.localId
            scope = user.scope
            displayName = user.displayName
            photoUrl = user.photoUrl
            customAttributes = user.customAttributes
            email = user.email
            emailVerified = user.emailVerified
            phoneNumber = user.phoneNumber
            providers = user.providers
            lastLoginAt = user.lastLoginAt
            lastRefreshAt = user.lastRefreshAt
        }

        /// The custom claims, when they are a JSON object (anything else is left out, as before).
        var customClaims: JSONObject? {
            customAttributes.flatMap { try? JSONValue(parsing: $0).objectValue }
        }
    }

    let user: Subject
    let signInProvider: String
    let extraClaims: JSONObject?
    let secondFactor: JSONObject?
    let now: Instant
    let signInAttributes: JSONValue?

    init(
        user: UserRecord, signInProvider: String, extraClaims: JSONObject?, secondFactor: JSONObject?, now: Instant,
        signInAttributes: JSONValue? = nil
    ) {
        self.user = Subject(user)
        self.signInProvider = signInProvider
        self.extraClaims = extraClaims
        self.secondFactor = secondFactor
        self.now = now
        self.signInAttributes = signInAttributes
    }

    /// `auth_time`: the last real sign-in (Node checks revocation against it).
    var authTime: Int64 { (user.lastLoginAt ?? user.lastRefreshAt ?? now).secondsSinceEpoch }

    /// The payload as compact JSON: byte for byte `IDTokenMinter.payload(self).encoded()`, written
    /// member by member instead of built as a `JSONObject` first (which looked every key up in the
    /// keys before it) and then walked. Custom or extra claims named like a claim the minter sets,
    /// or identities whose keys repeat, change where a value lands; those rare payloads are built
    /// the general way. Measured (callgrind, a password sign-in): the payload and the unsigned
    /// token ~26k -> ~7.7k instructions.
    func encoded() -> [UInt8] {
        var free = user.customClaims
        if let extraClaims, !extraClaims.isEmpty {
            if free == nil { free = extraClaims } else { free!.merge(extraClaims) }
        }
        if let free, free.members.contains(where: { Self.minterKeys.contains($0.key) }) {
            return IDTokenMinter.payload(self).encoded()
        }
        var json = JSONStreamWriter(capacity: 640)
        json.beginObject()
        json.optionalString("name", user.displayName)
        json.optionalString("picture", user.photoUrl)
        if let free { json.members(of: free) }
        json.optionalString("email", user.email)
        if let emailVerified = user.emailVerified {
            json.key("email_verified")
            json.bool(emailVerified)
        }
        json.optionalString("phone_number", user.phoneNumber)
        if signInProvider == SignInProvider.anonymous {
            json.key("provider_id")
            json.string("anonymous")
        }
        json.key("auth_time")
        json.int(authTime)
        json.key("user_id")
        json.string(user.localId)

        json.key("firebase")
        json.beginObject()
        json.key("identities")
        writeIdentities(to: &json)
        json.key("sign_in_provider")
        json.string(signInProvider)
        if let secondFactor {
            if let provider = secondFactor["provider"] {
                json.key("sign_in_second_factor")
                json.value(provider)
            }
            if let identifier = secondFactor["identifier"] {
                json.key("second_factor_identifier")
                json.value(identifier)
            }
        }
        if let tenant = user.scope.tenantId {
            json.key("tenant")
            json.string(tenant)
        }
        if let signInAttributes {
            json.key("sign_in_attributes")
            json.value(signInAttributes)
        }
        json.endObject()

        json.key("iat")
        json.int(now.secondsSinceEpoch)
        json.key("exp")
        json.int(now.secondsSinceEpoch + IDTokenMinter.lifetimeSeconds)
        json.key("aud")
        json.string(user.scope.projectId)
        json.key("iss")
        json.string("https://securetoken.google.com/", user.scope.projectId)
        json.key("sub")
        json.string(user.localId)
        json.endObject()
        return json.bytes
    }

    /// Every key `IDTokenMinter.payload` sets itself: a custom or extra claim of one of these
    /// names would be overwritten in its place, or keep a place the minter's order does not give it.
    private static let minterKeys: Set<String> = [
        "name", "picture", "email", "email_verified", "phone_number", "provider_id", "auth_time", "user_id", "firebase",
        "iat", "exp", "aud", "iss", "sub",
    ]

    /// `IDTokenMinter.identities(of:)` written directly, unless a key would repeat (a link named
    /// `email` or `phone`, or two links of one provider), where the object's replace-in-place
    /// decides.
    private func writeIdentities(to json: inout JSONStreamWriter) {
        let links = user.providers
        for (index, link) in links.enumerated() where link.providerId != SignInProvider.password {
            let repeats =
                (link.providerId == "email" && user.email != nil) || (link.providerId == "phone" && user.phoneNumber != nil)
                || links[..<index].contains { $0.providerId == link.providerId }
            if repeats { return json.value(.object(IDTokenMinter.identities(of: user))) }
        }
        json.beginObject()
        if let email = user.email {
            json.key("email")
            json.beginArray()
            json.string(email)
            json.endArray()
        }
        for link in links where link.providerId != SignInProvider.password {
            json.key(escaping: link.providerId)
            json.beginArray()
            json.string(link.rawId)
            json.endArray()
        }
        if let phoneNumber = user.phoneNumber {
            json.key("phone")
            json.beginArray()
            json.string(phoneNumber)
            json.endArray()
        }
        json.endObject()
    }
}

/// The `sign_in_provider` values Firebase uses besides IdP ids.
enum SignInProvider {
    static let password = "password"
    static let anonymous = "anonymous"
    static let custom = "custom"
    static let phone = "phone"
}

/// Tokens a transaction granted, the ID token not encoded yet: its claims are read from the user
/// inside the transaction, and the encoding (JSON, base64url, with `--id-tokens signed` an RSA
/// signature) is done after the commit, outside the writer lock, which every other write waits for.
struct GrantedTokens {
    let claims: IDTokenClaims
    let refreshToken: String
}

/// What a write that may sign a user in answers: its fields, and the tokens to add once encoded
/// (`OperationRequest.writeGrantingTokens`). No tokens when the sign-in stops short (a second
/// factor pending, an account to confirm, an admin creating an account).
struct TokenAnswer {
    var fields: JSONObject
    var tokens: GrantedTokens?
    /// The MFA routes answer the two tokens alone, without `expiresIn`.
    var includesExpiry = true

    /// `encoded(with:)` as the router would write it (`prettyEncoded()`), written member by member:
    /// an answer is mostly its ~900-character ID token, which the tree writer walked once more.
    func written(with signer: IDTokenSigner) throws -> [UInt8] {
        guard let tokens, !Self.tokenKeys.contains(where: { fields[$0] != nil }) else {
            // No tokens, or fields that a token key would replace in place: the tree decides.
            return JSONValue.object(try encoded(with: signer)).prettyEncoded()
        }
        var json = JSONStreamWriter(indent: 2, capacity: 2048)
        json.beginObject()
        json.members(of: fields)
        json.key("idToken")
        json.string(try signer.encode(tokens.claims))
        json.key("refreshToken")
        json.string(tokens.refreshToken)
        if includesExpiry {
            json.key("expiresIn")
            json.decimalString(IDTokenMinter.lifetimeSeconds)
        }
        json.endObject()
        return json.bytes
    }

    private static let tokenKeys = ["idToken", "refreshToken", "expiresIn"]

    /// `expiresIn` is a string: the Apple SDK ignores a number and then refreshes in a loop.
    func encoded(with signer: IDTokenSigner) throws -> JSONObject {
        guard let tokens else { return fields }
        var answer = fields
        answer["idToken"] = .string(try signer.encode(tokens.claims))
        answer["refreshToken"] = .string(tokens.refreshToken)
        if includesExpiry { answer["expiresIn"] = .string(String(IDTokenMinter.lifetimeSeconds)) }
        return answer
    }
}

extension OperationRequest {
    /// `write`, then the granted ID token encoded after the commit.
    func writeGrantingTokens(_ body: (AccountsTransaction) throws -> TokenAnswer) throws -> JSONObject {
        try write(body).encoded(with: environment.idTokenSigner)
    }

    /// `writeGrantingTokens`, the answer written as the router would write it (sign-up, sign-in).
    func writeGrantingTokensAnswer(_ body: (AccountsTransaction) throws -> TokenAnswer) throws -> OperationResult {
        .encodedJSON(try write(body).written(with: environment.idTokenSigner))
    }
}

extension AccountsTransaction {
    /// Saves `user` with a fresh `lastRefreshAt` and grants an ID token and a stored refresh token.
    /// `signInAttributes` (SAML) go into this ID token only, as in the reference: refreshed ones lack them.
    func saveGrantingTokens(
        for user: inout UserRecord, signInProvider: String, extraClaims: JSONObject? = nil,
        secondFactor: JSONObject? = nil, signInAttributes: JSONValue? = nil
    ) throws -> GrantedTokens {
        user.lastRefreshAt = now
        try users.save(&user)
        let logger = environment.logger
        if logger.minimumLevel <= .info {
            // Who signed in with what, once it is durable; never the tokens themselves.
            let who = user.email ?? user.phoneNumber ?? "no email"
            let factor = secondFactor?["provider"]?.stringValue.map { " + \($0) second factor" } ?? ""
            let line = "signed in \(user.localId) (\(who)) with \(signInProvider)\(factor)"
            store.connection.afterCommit { logger.info(line) }
        }
        var refreshToken = RefreshTokenRecord(
            token: "", scope: user.scope, localId: user.localId,
            signInProvider: signInProvider, extraClaims: extraClaims.flatMap { $0.isEmpty ? nil : $0 },
            secondFactor: secondFactor, issuedAt: now)
        refreshToken.token = RefreshTokenFormat.encode(refreshToken, tokenId: identifiers.opaqueToken(bytes: 32))
        try store.refreshTokens.insert(refreshToken)
        let claims = IDTokenClaims(
            user: user, signInProvider: signInProvider, extraClaims: extraClaims, secondFactor: secondFactor, now: now,
            signInAttributes: signInAttributes)
        return GrantedTokens(claims: claims, refreshToken: refreshToken.token)
    }
}
