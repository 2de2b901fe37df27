import JSON

/// `accounts:update` (v3 `setAccountInfo`), reference §8.1–8.3: profile, email and password
/// changes by the user (ID token) or the admin (local id), attribute and provider removal, and the
/// admin-only fields.
enum UpdateAccount {
    private static let unimplementedFields = ["provider", "upgradeToFederatedLogin"]
    private static let deletableAttributes: Set<String> = [
        "USER_ATTRIBUTE_NAME_UNSPECIFIED", "DISPLAY_NAME", "PHOTO_URL", "PASSWORD", "EMAIL",
    ]

    static func run(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        // PROJECT_DISABLED comes before any field is looked at, as in the reference (only a tenant can be disabled).
        if request.scope.tenantId != nil { try request.read { try $0.requireEnabled() } }
        if let field = unimplementedFields.first(where: { body.value($0) != nil }) {
            throw AuthError.notImplemented("\(field) is not implemented yet.")
        }
        if request.isPrivileged {
            guard body.has("localId") else { throw AuthError.invalid("MISSING_LOCAL_ID") }
        } else {
            guard body.has("idToken") || body.has("oobCode") else {
                throw AuthError.invalid("INVALID_REQ_TYPE : Unsupported request parameters.")
            }
            guard !body.has("customAttributes") else { throw AuthError.invalid("INSUFFICIENT_PERMISSION") }
        }
        if let customAttributes = try body.string("customAttributes"), !customAttributes.isEmpty {
            try CustomClaims.validate(serialized: customAttributes)
        }
        let deleteAttributes = try body.stringArray("deleteAttribute") ?? []
        if let attribute = deleteAttributes.first(where: { !deletableAttributes.contains($0) }) {
            if attribute == "PROVIDER" || attribute == "RAW_USER_INFO" {
                throw AuthError.notImplemented("deleteAttribute: \(attribute)")
            }
            throw AuthError.invalidArgument("/deleteAttribute must be equal to one of the allowed values")
        }
        if body.has("oobCode") { return try ApplyOobCode.run(request, code: try body.nonEmptyString("oobCode")) }
        let linkedProvider = try linkProviderUserInfo(body)
        let mfaEntries = try body.nested("mfa").map { mfa throws(AuthError) in
            guard mfa.value("enrollments")?.isNull != true else {
                throw AuthError.invalidArgument("/mfa/enrollments must be array")
            }
            return try mfa.objectArray("enrollments") ?? []
        }
        let deletedPasskeys = try body.stringArray("deletePasskey") ?? []

        return try request.writeGrantingTokens { transaction in
            try transaction.requireEnabled()
            var user: UserRecord
            var signInProvider: String?
            if let idToken = try body.nonEmptyString("idToken") {
                let authenticated = try transaction.authenticate(idToken: idToken)
                user = authenticated.user
                signInProvider = authenticated.signInProvider
                guard !body.has("disableUser") else { throw AuthError.invalid("OPERATION_NOT_ALLOWED") }
            } else {
                guard let localId = try body.nonEmptyString("localId") else { throw AuthError.invalid("MISSING_LOCAL_ID") }
                guard let found = try transaction.users.user(localId: localId, in: transaction.scope) else {
                    throw AuthError.invalid("USER_NOT_FOUND")
                }
                user = found
            }

            var changes = Changes()
            let previousEmail = user.email
            try applyEmail(body, to: &user, signInProvider: signInProvider, changes: &changes, in: transaction)
            if let password = try body.nonEmptyString("password") {
                try FakePasswordHash.setPassword(password, on: &user, in: transaction)
                signInProvider = SignInProvider.password
                changes.revokesTokens = true
            }
            if body.has("validSince") { changes.revokesTokens = true }
            if changes.revokesTokens { user.validSinceSeconds = transaction.now.secondsSinceEpoch }

            user.displayName = try body.string("displayName") ?? user.displayName
            user.photoUrl = try body.string("photoUrl") ?? user.photoUrl
            if request.isPrivileged { try applyAdminFields(body, to: &user, in: transaction) }
            applyDeletions(attributes: deleteAttributes, providers: try body.stringArray("deleteProvider") ?? [], to: &user)
            if let linkedProvider { user.upsertProvider(linkedProvider) }
            if let mfaEntries {
                // An empty list clears the factors; otherwise the list replaces them.
                user.mfaEnrollments = try AdminEnrollments.parse(
                    mfaEntries, keepIds: true, now: transaction.now, identifiers: transaction.identifiers)
            }
            user.passkeys.removeAll { deletedPasskeys.contains($0.credentialId) }

            if let previousEmail, user.email != previousEmail, signInProvider != SignInProvider.anonymous,
                let initialEmail = user.initialEmail
            {
                try RecoverEmailNotice.send(for: user, previousEmail: initialEmail, origin: request.origin, in: transaction)
            }
            var response: JSONObject = ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.localId)]
            response.setIfPresent("emailVerified", user.emailVerified.map { .bool($0) })
            response["providerUserInfo"] = .array(user.providerUserInfo.map { .object($0.json) })
            response.setIfPresent("email", user.email.map { .string($0) })
            response.setIfPresent("displayName", user.displayName.map { .string($0) })
            response.setIfPresent("photoUrl", user.photoUrl.map { .string($0) })
            response.setIfPresent("newEmail", changes.newEmail.map { .string($0) })
            response.setIfPresent("passwordHash", user.passwordHash.map { .string($0) })
            // New tokens only when old ones were just revoked and we know how the user signed in.
            if changes.revokesTokens, let signInProvider {
                return TokenAnswer(
                    fields: response, tokens: try transaction.saveGrantingTokens(for: &user, signInProvider: signInProvider))
            }
            try transaction.users.save(&user)
            return TokenAnswer(fields: response)
        }
    }

    private struct Changes {
        var revokesTokens = false
        var newEmail: String?
    }

    private static func applyEmail(
        _ body: RequestBody, to user: inout UserRecord, signInProvider: String?, changes: inout Changes,
        in transaction: AccountsTransaction
    ) throws {
        guard let email = try body.nonEmptyString("email") else { return }
        guard EmailAddress.isValid(email) else { throw AuthError.invalid("INVALID_EMAIL") }
        let canonical = EmailAddress.canonical(email)
        changes.newEmail = canonical
        guard canonical != user.email else { return }
        if try !transaction.users.users(email: canonical, in: transaction.scope).isEmpty {
            throw AuthError.invalid("EMAIL_EXISTS")
        }
        if signInProvider != SignInProvider.anonymous, let old = user.email, user.initialEmail == nil {
            user.initialEmail = old
        }
        user.email = canonical
        user.emailVerified = false
        changes.revokesTokens = true
    }

    private static func applyAdminFields(
        _ body: RequestBody, to user: inout UserRecord, in transaction: AccountsTransaction
    ) throws {
        if let disable = try body.bool("disableUser") { user.disabled = disable }
        if let phoneNumber = try body.nonEmptyString("phoneNumber"), phoneNumber != user.phoneNumber {
            guard PhoneNumber.isValid(phoneNumber) else { throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format.") }
            if try transaction.users.user(phoneNumber: phoneNumber, in: transaction.scope) != nil {
                throw AuthError.invalid("PHONE_NUMBER_EXISTS")
            }
            user.phoneNumber = phoneNumber
        }
        user.emailVerified = try body.bool("emailVerified") ?? user.emailVerified
        if let claims = try body.string("customAttributes") {
            // The Admin SDKs clear claims by sending "{}".
            user.customAttributes = claims
        }
        if let createdAt = try body.int64("createdAt") { user.createdAt = Instant(millisecondsSinceEpoch: createdAt) }
        if let lastLoginAt = try body.int64("lastLoginAt") {
            user.lastLoginAt = Instant(millisecondsSinceEpoch: lastLoginAt)
        }
        // The admin's own value wins over "now" (revoke_refresh_tokens sends the current second).
        if let validSince = try body.int64("validSince") { user.validSinceSeconds = validSince }
    }

    private static func applyDeletions(attributes: [String], providers: [String], to user: inout UserRecord) {
        for attribute in attributes {
            switch attribute {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoUrl = nil
            case "PASSWORD":
                user.passwordHash = nil
                user.salt = nil
            case "EMAIL":
                user.email = nil
                user.emailVerified = nil
                user.emailLinkSignin = false
            default: break
            }
        }
        if providers.contains(SignInProvider.password) {
            user.email = nil
            user.emailVerified = nil
            user.emailLinkSignin = false
            user.passwordHash = nil
            user.salt = nil
        }
        if providers.contains(SignInProvider.phone) { user.phoneNumber = nil }
        user.providers.removeAll { providers.contains($0.providerId) }
    }

    /// `linkProviderUserInfo`: an identity stored as given, replacing one of the same provider.
    private static func linkProviderUserInfo(_ body: RequestBody) throws(AuthError) -> ProviderUserInfo? {
        guard let link = try body.nested("linkProviderUserInfo") else { return nil }
        guard let providerId = try link.nonEmptyString("providerId") else { throw AuthError.invalid("MISSING_PROVIDER_ID") }
        guard let rawId = try link.nonEmptyString("rawId") else { throw AuthError.invalid("MISSING_RAW_ID") }
        return ProviderUserInfo(
            providerId: providerId, rawId: rawId, federatedId: try link.string("federatedId"),
            email: try link.string("email").map(EmailAddress.canonical), displayName: try link.string("displayName"),
            photoUrl: try link.string("photoUrl"), screenName: try link.string("screenName"),
            phoneNumber: try link.string("phoneNumber"))
    }
}
