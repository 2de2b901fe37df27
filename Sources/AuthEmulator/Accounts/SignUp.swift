import JSON

/// `accounts:signUp` (v3 `signupNewUser`, admin `projects/{p}/accounts`): anonymous and
/// email/password sign-up, linking a password to the signed-in user, and admin creation
/// (reference §9.1).
enum SignUp {
    /// The route: the answer written as the router would write it.
    static func answer(_ request: OperationRequest) throws -> OperationResult {
        .encodedJSON(try grant(request).written(with: request.environment.idTokenSigner))
    }

    /// The answer as an object (the console creates users through here).
    static func run(_ request: OperationRequest) throws -> JSONObject {
        try grant(request).encoded(with: request.environment.idTokenSigner)
    }

    /// The sign-up; its tokens are encoded after the commit, by the caller.
    private static func grant(_ request: OperationRequest) throws -> TokenAnswer {
        let body = request.body
        let idToken = try body.nonEmptyString("idToken")
        let requestedLocalId = try body.nonEmptyString("localId")
        let email = try body.string("email")
        let password = try body.nonEmptyString("password")

        // Clients may seed second factors too, as the reference allows (DESIGN §2.2: test seeding).
        let mfaEntries = try body.objectArray("mfaInfo")
        var signInProvider: String?
        if request.isPrivileged {
            if idToken != nil, requestedLocalId != nil { throw AuthError.invalid("UNEXPECTED_PARAMETER : User ID") }
        } else {
            if requestedLocalId != nil { throw AuthError.invalid("UNEXPECTED_PARAMETER : User ID") }
            if idToken != nil || password != nil || !(email ?? "").isEmpty {
                guard !(email ?? "").isEmpty else { throw AuthError.invalid("MISSING_EMAIL") }
                guard password != nil else { throw AuthError.invalid("MISSING_PASSWORD") }
                signInProvider = SignInProvider.password
            } else {
                signInProvider = SignInProvider.anonymous
            }
        }

        let newLocalId = requestedLocalId ?? request.environment.identifiers.alphanumeric(28)
        let draft = { (transaction: AccountsTransaction) throws -> UserRecord in
            try transaction.requireEnabled(signInProvider == SignInProvider.anonymous ? .anonymousSignUp : .passwordSignUp)
            var user: UserRecord
            if let idToken {
                user = try transaction.authenticate(idToken: idToken).user
            } else {
                // An id the admin chose is checked first, as the reference does; a generated one is
                // caught by the INSERT's primary key instead (one statement less a sign-up).
                if requestedLocalId != nil, try transaction.users.localIdExists(newLocalId, in: transaction.scope) {
                    throw AuthError.invalid("DUPLICATE_LOCAL_ID")
                }
                user = UserRecord(localId: newLocalId, scope: transaction.scope, createdAt: transaction.now)
            }
            try apply(body, to: &user, email: email, password: password, in: transaction)
            if let mfaEntries {
                user.mfaEnrollments = try AdminEnrollments.parse(
                    mfaEntries, keepIds: false, now: transaction.now, identifiers: transaction.identifiers)
            }
            // Only a sign-up that signs in: an account an admin creates has no sign-in yet, as in
            // production (the reference emulator stamps admin creation too).
            if signInProvider != nil { user.lastLoginAt = transaction.now }
            return user
        }
        let blocking = try BlockingFunctions.run(
            request, idToken == nil ? [.beforeCreate, .beforeSignIn] : [], signInMethod: signInProvider ?? "password", draft: draft)

        return try request.write { transaction in
            var user = try draft(transaction)
            try blocking.apply(to: &user)

            var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId)]
            response.setIfPresent("displayName", user.displayName.map { .string($0) })
            response.setIfPresent("email", user.email.map { .string($0) })
            guard let signInProvider else {
                try transaction.users.save(&user)
                return TokenAnswer(fields: response)
            }
            return TokenAnswer(
                fields: response,
                tokens: try transaction.saveGrantingTokens(
                    for: &user, signInProvider: signInProvider, extraClaims: blocking.sessionClaims))
        }
    }

    private static func apply(
        _ body: RequestBody, to user: inout UserRecord, email: String?, password: String?,
        in transaction: AccountsTransaction
    ) throws {
        let isPrivileged = transaction.isPrivileged
        if isPrivileged {
            user.displayName = try body.string("displayName") ?? user.displayName
            user.photoUrl = try body.string("photoUrl") ?? user.photoUrl
            user.emailVerified = try body.bool("emailVerified") ?? false
            if let phoneNumber = try body.nonEmptyString("phoneNumber") {
                guard PhoneNumber.isValid(phoneNumber) else { throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format.") }
                if try transaction.users.user(phoneNumber: phoneNumber, in: transaction.scope) != nil {
                    throw AuthError.invalid("PHONE_NUMBER_EXISTS")
                }
                user.phoneNumber = phoneNumber
            }
            if try body.bool("disabled") == true { user.disabled = true }
        } else if password != nil {
            // The reference copies displayName even when it clears it on a linked account.
            user.displayName = try body.string("displayName")
            user.emailVerified = false
        }

        // An empty email on a client sign-up must not turn into an anonymous account.
        if let email, !email.isEmpty || !isPrivileged {
            guard EmailAddress.isValid(email) else { throw AuthError.invalid("INVALID_EMAIL") }
            let canonical = EmailAddress.canonical(email)
            if try !transaction.users.users(email: canonical, in: transaction.scope).isEmpty {
                throw AuthError.invalid("EMAIL_EXISTS")
            }
            user.email = canonical
        }
        if let password {
            try FakePasswordHash.setPassword(password, on: &user, in: transaction)
            user.validSinceSeconds = transaction.now.secondsSinceEpoch
        }
    }
}
