import JSON

/// `accounts:batchCreate` (the Admin SDKs' `import_users`, v3 `uploadAccount`, and start-up import),
/// reference §8.9. Whole-request checks first; then each entry is checked and written on its own,
/// in one transaction: good entries are written, bad ones reported as `error: [{index, message}]`.
enum BatchCreate {
    /// Users one request may import, as production and the Admin SDKs allow (the Node SDK refuses
    /// more before sending, with this code and message): a larger import that passed here would fail
    /// there. The start-up import is not bound by it.
    static let maximumUsers = 1000

    static func run(_ request: OperationRequest) throws -> JSONObject {
        // `PROJECT_DISABLED` comes before any field is checked, as in the reference.
        try request.read { try $0.requireEnabled() }
        if let users = request.body.object["users"]?.arrayValue, users.count > maximumUsers {
            throw AuthError.invalid("MAXIMUM_USER_COUNT_EXCEEDED : A maximum of \(maximumUsers) users can be imported at once.")
        }
        return try run(request.body, in: request.scope, environment: request.environment)
    }

    /// Also the start-up import's entry point: no HTTP request needed.
    static func run(_ body: RequestBody, in scope: UserScope, environment: AuthEnvironment) throws -> JSONObject {
        guard let entries = try body.objectArray("users"), !entries.isEmpty else {
            throw AuthError.invalid("MISSING_USER_ACCOUNT")
        }
        let hash = try ImportedPasswordHash(request: body)
        let sanityCheck = try body.bool("sanityCheck") ?? false
        let allowOverwrite = try body.bool("allowOverwrite") ?? false
        return try environment.write(in: scope, isPrivileged: true) { transaction in
            let oneAccountPerEmail = !(try transaction.config().allowDuplicateEmails)
            try checkDuplicates(entries, sanityCheck: sanityCheck, oneAccountPerEmail: oneAccountPerEmail, allowOverwrite: allowOverwrite)
            var errors: [JSONValue] = []
            for (index, entry) in entries.enumerated() {
                let importer = ImportedUser(
                    entry: RequestBody(entry), hash: hash, sanityCheck: sanityCheck, oneAccountPerEmail: oneAccountPerEmail,
                    allowOverwrite: allowOverwrite)
                do {
                    try importer.write(in: transaction)
                } catch let failure as ImportFailure {
                    errors.append(["index": .int(Int64(index)), "message": .string(failure.message)])
                } catch let error as AuthError {
                    // A field of the wrong type: reported for that entry, like the reference's schema check.
                    errors.append(["index": .int(Int64(index)), "message": .string(error.message)])
                }
            }
            return ["kind": "identitytoolkit#UploadAccountResponse", "error": .array(errors)]
        }
    }

    /// The checks that fail the whole request (reference §8.9).
    private static func checkDuplicates(
        _ entries: [JSONObject], sanityCheck: Bool, oneAccountPerEmail: Bool, allowOverwrite: Bool
    ) throws(AuthError) {
        if sanityCheck {
            if oneAccountPerEmail {
                var emails = Set<String>()
                for entry in entries {
                    guard let email = entry["email"]?.stringValue else { continue }
                    guard emails.insert(EmailAddress.canonical(email)).inserted else {
                        throw AuthError.invalid("DUPLICATE_EMAIL : \(email)")
                    }
                }
            }
            var rawIds = Set<String>()
            for entry in entries {
                for provider in entry["providerUserInfo"]?.arrayValue ?? [] {
                    guard let providerId = provider["providerId"]?.stringValue, let rawId = provider["rawId"]?.stringValue
                    else { continue }
                    guard rawIds.insert("\(providerId)\u{0}\(rawId)").inserted else {
                        throw AuthError.invalid("DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
                    }
                }
            }
        }
        if !allowOverwrite {
            var localIds = Set<String>()
            for entry in entries {
                guard let localId = entry["localId"]?.stringValue else { continue }
                guard localIds.insert(localId).inserted else { throw AuthError.invalid("DUPLICATE_LOCAL_ID : \(localId)") }
            }
        }
    }
}

/// A per-entry refusal, reported in `error` with the reference's wording.
struct ImportFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// One entry of a batch: checked against the request and the store, then written.
struct ImportedUser {
    /// Our exports' per-user hash parameters, for users whose hashes came in with different algorithms.
    static let hashExtensionKey = "authEmulatorPasswordHash"

    let entry: RequestBody
    let hash: ImportedPasswordHash?
    let sanityCheck: Bool
    let oneAccountPerEmail: Bool
    let allowOverwrite: Bool

    func write(in transaction: AccountsTransaction) throws {
        var user = try record(in: transaction)
        let scope = transaction.scope
        if let existing = try transaction.users.user(localId: user.localId, in: scope) {
            guard allowOverwrite else { throw ImportFailure("localId belongs to an existing account - can not overwrite.") }
            // Overwriting replaces the whole account, links included.
            user.storedProviders = existing.providers
        }
        for link in user.providers {
            if let owner = try transaction.users.user(providerId: link.providerId, rawId: link.rawId, in: scope),
                owner.localId != user.localId
            {
                throw ImportFailure("raw id exists in other account in database")
            }
        }
        if let email = user.email, oneAccountPerEmail,
            try transaction.users.users(email: email, in: scope).contains(where: { $0.localId != user.localId })
        {
            throw ImportFailure(
                sanityCheck
                    ? "email exists in other account in database"
                    : "((Auth Emulator does not support importing duplicate email: \(email)))")
        }
        try checkEnrollmentIds(of: user, in: transaction)
        try transaction.users.save(&user)
    }

    /// The record the entry describes, or the first reason it cannot be imported.
    private func record(in transaction: AccountsTransaction) throws -> UserRecord {
        guard let localId = try entry.nonEmptyString("localId") else { throw ImportFailure("localId is missing") }
        if let tenantId = try entry.nonEmptyString("tenantId"), tenantId != transaction.scope.tenantId {
            throw ImportFailure("Tenant id in userInfo does not match the tenant id in request.")
        }
        let now = transaction.now
        let createdAt = try entry.int64("createdAt").map(Instant.init(millisecondsSinceEpoch:)) ?? now
        var user = UserRecord(localId: localId, scope: transaction.scope, createdAt: createdAt)
        user.displayName = try entry.string("displayName")
        user.photoUrl = try entry.string("photoUrl")
        user.disabled = try entry.bool("disabled") ?? false
        user.lastLoginAt = try entry.int64("lastLoginAt").map(Instant.init(millisecondsSinceEpoch:))
        user.validSinceSeconds = now.secondsSinceEpoch
        try applyPassword(to: &user, now: now, identifiers: transaction.identifiers)
        if let claims = try entry.string("customAttributes") {
            do {
                try CustomClaims.validate(serialized: claims)
            } catch {
                switch error.message {
                case "CLAIMS_TOO_LARGE": throw ImportFailure("Custom claims provided are too large.")
                case let message where message.hasPrefix("FORBIDDEN_CLAIM"):
                    throw ImportFailure("Custom claims provided include a reserved claim.")
                default: throw ImportFailure("Invalid custom claims provided.")
                }
            }
            user.customAttributes = claims
        }
        user.providers = try providers()
        if let phoneNumber = try entry.nonEmptyString("phoneNumber") {
            guard PhoneNumber.isValid(phoneNumber) else { throw ImportFailure("phone number format is invalid") }
            user.phoneNumber = phoneNumber
        }
        if let email = try entry.nonEmptyString("email") {
            guard EmailAddress.isValid(email) else { throw ImportFailure("email is invalid") }
            user.email = EmailAddress.canonical(email)
            user.emailVerified = try entry.bool("emailVerified") ?? false
        }
        if let mfaInfo = try entry.objectArray("mfaInfo"), !mfaInfo.isEmpty {
            user.mfaEnrollments = try enrollments(mfaInfo, of: user, now: now, identifiers: transaction.identifiers)
        }
        return user
    }

    /// `passwordHash` + `salt` verbatim (with the request's algorithm, if any), or `rawPassword`
    /// hashed the emulator's way.
    private func applyPassword(to user: inout UserRecord, now: Instant, identifiers: any IdentifierSource) throws {
        if let passwordHash = try entry.nonEmptyString("passwordHash") {
            let perUser = try entry.nested(Self.hashExtensionKey).flatMap { body throws(AuthError) in
                try ImportedPasswordHash(request: body)
            }
            try (perUser ?? hash)?.checkCost(ofPasswordHash: passwordHash)
            user.passwordHash = passwordHash
            user.salt = try entry.string("salt")
            user.importedPasswordHash = perUser ?? hash
            user.passwordUpdatedAt = now
        } else if let rawPassword = try entry.nonEmptyString("rawPassword") {
            let salt = FakePasswordHash.newSalt(identifiers)
            user.salt = salt
            user.passwordHash = FakePasswordHash.hash(rawPassword, salt: salt)
            user.passwordUpdatedAt = now
        }
    }

    /// Federated links; the derived `password` and `phone` entries are skipped.
    private func providers() throws -> [ProviderUserInfo] {
        var links: [ProviderUserInfo] = []
        for info in try entry.objectArray("providerUserInfo") ?? [] {
            let body = RequestBody(info)
            let providerId = try body.nonEmptyString("providerId")
            if providerId == "password" || providerId == "phone" { continue }
            guard let providerId, let rawId = try body.nonEmptyString("rawId") else {
                if body.has("federatedId") {
                    throw ImportFailure(
                        "((Parsing federatedId is not implemented in Auth Emulator; please specify providerId AND rawId as a workaround.))")
                }
                throw ImportFailure("federatedId or (providerId & rawId) is required")
            }
            var link = ProviderUserInfo(
                providerId: providerId, rawId: rawId, federatedId: try body.string("federatedId"),
                email: try body.string("email").map(EmailAddress.canonical), displayName: try body.string("displayName"),
                photoUrl: try body.string("photoUrl"), screenName: try body.string("screenName"),
                phoneNumber: try body.string("phoneNumber"))
            if link.federatedId == nil { link.federatedId = rawId }
            links.removeAll { $0.providerId == providerId }
            links.append(link)
        }
        return links
    }

    private func enrollments(
        _ entries: [JSONObject], of user: UserRecord, now: Instant, identifiers: any IdentifierSource
    ) throws -> [MFAEnrollment] {
        guard user.email != nil else { throw ImportFailure("Second factor account requires email to be presented.") }
        guard user.emailVerified == true else { throw ImportFailure("Second factor account requires email to be verified.") }
        var enrollments: [MFAEnrollment] = []
        for entry in entries {
            guard let number = entry["phoneInfo"]?.stringValue else { throw ImportFailure("Second factor not supported.") }
            guard PhoneNumber.isValid(number) else { throw ImportFailure("Phone number format is invalid") }
            let id = entry["mfaEnrollmentId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? identifiers.alphanumeric(28)
            guard !enrollments.contains(where: { $0.mfaEnrollmentId == id }) else {
                throw ImportFailure("Enrollment id already exists.")
            }
            enrollments.append(
                MFAEnrollment(
                    mfaEnrollmentId: id, displayName: entry["displayName"]?.stringValue,
                    enrolledAt: entry["enrolledAt"]?.stringValue.flatMap(Instant.init(rfc3339:)) ?? now, factor: .phone(number)))
        }
        return enrollments
    }

    /// An enrollment id another account of the scope already holds.
    private func checkEnrollmentIds(of user: UserRecord, in transaction: AccountsTransaction) throws {
        for enrollment in user.mfaEnrollments
        where try transaction.users.otherUserHoldsEnrollment(enrollment.mfaEnrollmentId, besides: user.localId, in: transaction.scope) {
            throw ImportFailure("Enrollment id already exists.")
        }
    }
}
