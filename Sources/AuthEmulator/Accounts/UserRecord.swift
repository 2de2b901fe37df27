import JSON

/// Which user pool a request works on: a project, or one tenant inside it.
public struct UserScope: Sendable, Hashable {
    public let projectId: String
    public let tenantId: String?

    public init(projectId: String, tenantId: String? = nil) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    /// The tenant column value: the empty string stands for "no tenant".
    var tenantKey: String { tenantId ?? "" }
}

/// A linked federated identity (`google.com`, `apple.com`, …). The `password` and `phone` entries
/// that clients also see are derived from the user's own fields, never stored.
public struct ProviderUserInfo: Sendable, Equatable {
    public var providerId: String
    public var rawId: String
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    public var phoneNumber: String?

    public init(
        providerId: String, rawId: String, federatedId: String? = nil, email: String? = nil, displayName: String? = nil,
        photoUrl: String? = nil, screenName: String? = nil, phoneNumber: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
    }

    /// `json`, written member by member (a lookup's answer).
    func write(to json: inout JSONStreamWriter) {
        json.beginObject()
        json.key("providerId")
        json.string(providerId)
        json.key("rawId")
        json.string(rawId)
        json.optionalString("federatedId", federatedId)
        json.optionalString("email", email)
        json.optionalString("displayName", displayName)
        json.optionalString("photoUrl", photoUrl)
        json.optionalString("screenName", screenName)
        json.optionalString("phoneNumber", phoneNumber)
        json.endObject()
    }

    var json: JSONObject {
        var object: JSONObject = ["providerId": .string(providerId), "rawId": .string(rawId)]
        object.setIfPresent("federatedId", federatedId.map { .string($0) })
        object.setIfPresent("email", email.map { .string($0) })
        object.setIfPresent("displayName", displayName.map { .string($0) })
        object.setIfPresent("photoUrl", photoUrl.map { .string($0) })
        object.setIfPresent("screenName", screenName.map { .string($0) })
        object.setIfPresent("phoneNumber", phoneNumber.map { .string($0) })
        return object
    }
}

/// A stored account, field for field what `accounts:lookup` returns.
public struct UserRecord: Sendable, Equatable {
    public var localId: String
    public var scope: UserScope
    /// Always lower case.
    public var email: String?
    /// Absent for users that never had an email (anonymous, phone).
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    /// The handle an identity provider gave at sign-up (`screen_name`), kept like the profile fields.
    public var screenName: String?
    public var phoneNumber: String?
    public var passwordHash: String?
    public var salt: String?
    /// How `passwordHash` was made, for a hash imported with a production algorithm; nil for the
    /// emulator's own `fakeHash:` format.
    var importedPasswordHash: ImportedPasswordHash?
    public var passwordUpdatedAt: Instant?
    /// Tokens issued before this second are revoked.
    public var validSinceSeconds: Int64?
    public var createdAt: Instant
    public var lastLoginAt: Instant?
    public var lastRefreshAt: Instant?
    public var disabled = false
    /// The custom claims as the JSON object text the Admin SDK sent.
    public var customAttributes: String?
    public var customAuth = false
    public var emailLinkSignin = false
    public var initialEmail: String?
    public var providers: [ProviderUserInfo] = []
    public var mfaEnrollments: [MFAEnrollment] = [] {
        didSet { listsWithdrawnFactors = false }
    }
    /// Set (by a withdrawal, after it changes the list) once the last second factor is withdrawn: the
    /// reference then keeps `mfaInfo: []` and lookups show the empty list, while an admin clearing the
    /// factors removes the field.
    public var listsWithdrawnFactors = false
    public var passkeys: [Passkey] = []
    /// The links as last read from or written to the store (`nil` for a user not stored yet), so
    /// that saving rewrites them only when they changed. A record made with `init` must therefore
    /// be for a user the store does not hold: to change a stored user, load it first.
    var storedProviders: [ProviderUserInfo]?
    /// The user as last read from or written to the store (`nil` until then, and for a record made
    /// with `init`): `save` writes only the columns that differ from it.
    var storedRecord: StoredUserRecord?

    public init(localId: String, scope: UserScope, createdAt: Instant) {
        self.localId = localId
        self.scope = scope
        self.createdAt = createdAt
    }

    public var hasPassword: Bool { passwordHash != nil }

    /// The provider list clients see: stored federated links plus the derived `password` and
    /// `phone` entries (reference §8.4).
    public var providerUserInfo: [ProviderUserInfo] {
        var entries = providers
        if let email, hasPassword || emailLinkSignin {
            entries.append(
                ProviderUserInfo(
                    providerId: "password", rawId: email, federatedId: email, email: email, displayName: displayName,
                    photoUrl: photoUrl))
        }
        if let phoneNumber {
            entries.append(ProviderUserInfo(providerId: "phone", rawId: phoneNumber, phoneNumber: phoneNumber))
        }
        return entries
    }

    /// `providerUserInfo` as JSON, each entry's object made directly: the derived `password` and
    /// `phone` entries are not first built as `ProviderUserInfo`s with copies of the profile strings.
    var providerUserInfoJSON: [JSONValue] {
        var entries: [JSONValue] = []
        entries.reserveCapacity(providers.count + 2)
        for link in providers { entries.append(.object(link.json)) }
        if let email, hasPassword || emailLinkSignin {
            var entry: JSONObject = [
                "providerId": .string(SignInProvider.password), "rawId": .string(email), "federatedId": .string(email),
                "email": .string(email),
            ]
            entry.setIfPresent("displayName", displayName.map { .string($0) })
            entry.setIfPresent("photoUrl", photoUrl.map { .string($0) })
            entries.append(.object(entry))
        }
        if let phoneNumber {
            entries.append(
                .object([
                    "providerId": .string(SignInProvider.phone), "rawId": .string(phoneNumber),
                    "phoneNumber": .string(phoneNumber),
                ]))
        }
        return entries
    }

    /// Adds or replaces the link for `info.providerId`, keeping its position.
    public mutating func upsertProvider(_ info: ProviderUserInfo) {
        if let index = providers.firstIndex(where: { $0.providerId == info.providerId }) {
            providers[index] = info
        } else {
            providers.append(info)
        }
    }

    /// `json`, written member by member: what `accounts:lookup` answers. Keep the two in step
    /// (AnswerEncodingTests compares them over users with every field set and unset).
    func write(to json: inout JSONStreamWriter) {
        json.beginObject()
        json.key("localId")
        json.string(localId)
        json.optionalString("email", email)
        if let emailVerified {
            json.key("emailVerified")
            json.bool(emailVerified)
        }
        json.optionalString("displayName", displayName)
        json.optionalString("photoUrl", photoUrl)
        json.optionalString("screenName", screenName)
        json.optionalString("phoneNumber", phoneNumber)
        json.optionalString("passwordHash", passwordHash)
        json.optionalString("salt", salt)
        if let passwordUpdatedAt {
            json.key("passwordUpdatedAt")
            json.int(passwordUpdatedAt.millisecondsSinceEpoch)
        }
        if let validSinceSeconds {
            json.key("validSince")
            json.decimalString(validSinceSeconds)
        }
        json.key("createdAt")
        json.decimalString(createdAt.millisecondsSinceEpoch)
        if let lastLoginAt {
            json.key("lastLoginAt")
            json.decimalString(lastLoginAt.millisecondsSinceEpoch)
        }
        json.optionalString("lastRefreshAt", lastRefreshAt?.rfc3339)
        json.key("providerUserInfo")
        json.beginArray()
        for link in providers { link.write(to: &json) }
        if let email, hasPassword || emailLinkSignin {
            json.beginObject()
            json.key("providerId")
            json.string(SignInProvider.password)
            json.key("rawId")
            json.string(email)
            json.key("federatedId")
            json.string(email)
            json.key("email")
            json.string(email)
            json.optionalString("displayName", displayName)
            json.optionalString("photoUrl", photoUrl)
            json.endObject()
        }
        if let phoneNumber {
            json.beginObject()
            json.key("providerId")
            json.string(SignInProvider.phone)
            json.key("rawId")
            json.string(phoneNumber)
            json.key("phoneNumber")
            json.string(phoneNumber)
            json.endObject()
        }
        json.endArray()
        json.optionalString("customAttributes", customAttributes)
        if customAuth {
            json.key("customAuth")
            json.bool(true)
        }
        if disabled {
            json.key("disabled")
            json.bool(true)
        }
        if emailLinkSignin {
            json.key("emailLinkSignin")
            json.bool(true)
        }
        json.optionalString("initialEmail", initialEmail)
        if !mfaEnrollments.isEmpty || listsWithdrawnFactors {
            json.key("mfaInfo")
            json.beginArray()
            for enrollment in mfaEnrollments { json.value(.object(enrollment.json)) }
            json.endArray()
        }
        if !passkeys.isEmpty {
            json.key("passkeyInfo")
            json.beginArray()
            for passkey in passkeys { json.value(.object(passkey.json)) }
            json.endArray()
        }
        json.optionalString("tenantId", scope.tenantId)
        json.endObject()
    }

    /// The record as `accounts:lookup` and `accounts:batchGet` return it. Timestamps keep the
    /// reference's types: `createdAt`/`lastLoginAt` are strings of milliseconds (the Apple SDK reads
    /// only strings), `validSince` a string of seconds, `passwordUpdatedAt` a number. Lookups write
    /// the same object with `write(to:)`.
    public var json: JSONObject {
        var object: JSONObject = ["localId": .string(localId)]
        object.setIfPresent("email", email.map { .string($0) })
        object.setIfPresent("emailVerified", emailVerified.map { .bool($0) })
        object.setIfPresent("displayName", displayName.map { .string($0) })
        object.setIfPresent("photoUrl", photoUrl.map { .string($0) })
        object.setIfPresent("screenName", screenName.map { .string($0) })
        object.setIfPresent("phoneNumber", phoneNumber.map { .string($0) })
        object.setIfPresent("passwordHash", passwordHash.map { .string($0) })
        object.setIfPresent("salt", salt.map { .string($0) })
        object.setIfPresent("passwordUpdatedAt", passwordUpdatedAt.map { .int($0.millisecondsSinceEpoch) })
        object.setIfPresent("validSince", validSinceSeconds.map { .string(String($0)) })
        object["createdAt"] = .string(String(createdAt.millisecondsSinceEpoch))
        object.setIfPresent("lastLoginAt", lastLoginAt.map { .string(String($0.millisecondsSinceEpoch)) })
        object.setIfPresent("lastRefreshAt", lastRefreshAt.map { .string($0.rfc3339) })
        object["providerUserInfo"] = .array(providerUserInfoJSON)
        object.setIfPresent("customAttributes", customAttributes.map { .string($0) })
        if customAuth { object["customAuth"] = true }
        if disabled { object["disabled"] = true }
        if emailLinkSignin { object["emailLinkSignin"] = true }
        object.setIfPresent("initialEmail", initialEmail.map { .string($0) })
        if !mfaEnrollments.isEmpty || listsWithdrawnFactors {
            object["mfaInfo"] = .array(mfaEnrollments.map { .object($0.json) })
        }
        if !passkeys.isEmpty { object["passkeyInfo"] = .array(passkeys.map { .object($0.json) }) }
        object.setIfPresent("tenantId", scope.tenantId.map { .string($0) })
        return object
    }
}

