import JSON

/// `accounts:signInWithPassword` (v3 `verifyPassword`), reference §9.2.
enum SignInWithPassword {
    static func run(_ request: OperationRequest) throws -> OperationResult {
        try request.requireEnabledBeforeFields(.passwordSignIn)
        let body = request.body
        guard let email = try body.string("email") else { throw AuthError.invalid("MISSING_EMAIL") }
        guard EmailAddress.isValid(email) else { throw AuthError.invalid("INVALID_EMAIL") }
        guard let password = try body.nonEmptyString("password") else { throw AuthError.invalid("MISSING_PASSWORD") }
        if body.has("captchaResponse") || body.has("captchaChallenge") {
            throw AuthError.notImplemented("captcha unimplemented")
        }
        if body.has("idToken") || body.has("pendingIdToken") {
            throw AuthError.notImplemented(
                "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator.")
        }
        let canonical = EmailAddress.canonical(email)

        let lookUp = { (transaction: AccountsTransaction) throws -> UserRecord in
            try transaction.requireEnabled(.passwordSignIn)
            guard let user = try transaction.users.users(email: canonical, in: transaction.scope).first else {
                throw AuthError.invalid(try transaction.config().improvedEmailPrivacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
            }
            guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
            return user
        }
        let wrongPassword = { (transaction: AccountsTransaction) throws -> AuthError in
            AuthError.invalid(try transaction.config().improvedEmailPrivacy ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD")
        }

        /// One sign-in attempt. `prechecked` is the user whose password was already checked with no
        /// transaction open; its stored hash only has to be unchanged.
        func attempt(prechecked: UserRecord?) throws -> OperationResult {
            let verify = { (transaction: AccountsTransaction) throws -> UserRecord in
                let user = try lookUp(transaction)
                if let prechecked, user.hasSamePassword(as: prechecked) { return user }
                if prechecked == nil, user.importedPasswordHash != nil { throw SlowHashOutsideTransaction() }
                guard FakePasswordHash.matches(password, user: user) else { throw try wrongPassword(transaction) }
                return user
            }
            // beforeSignIn is skipped while a second factor is pending (mfaSignIn:finalize would call it).
            let blocking = try BlockingFunctions.run(request, [.beforeSignIn], signInMethod: SignInProvider.password) {
                transaction in
                let user = try verify(transaction)
                return try transaction.enforcesSecondFactors && !user.mfaEnrollments.isEmpty ? nil : user
            }
            return try request.writeGrantingTokensAnswer { transaction in
                var user = try verify(transaction)
                try blocking.apply(to: &user)
                var response: JSONObject = [
                    "kind": "identitytoolkit#VerifyPasswordResponse", "registered": true, "localId": .string(user.localId),
                    "email": .string(canonical),
                ]
                response.setIfPresent("displayName", user.displayName.map { .string($0) })
                response.setIfPresent("photoUrl", user.photoUrl.map { .string($0) })
                return try transaction.completeFirstFactor(
                    &user, signInProvider: SignInProvider.password, extraClaims: blocking.sessionClaims,
                    answering: response)
            }
        }

        do {
            return try attempt(prechecked: nil)
        } catch is SlowHashOutsideTransaction {
            // An imported hash (scrypt, bcrypt, …) takes tens of milliseconds, and in memory even a
            // read holds the writer's lock: check it with no transaction open, then sign in.
            let (user, wrong) = try request.read { (try lookUp($0), try wrongPassword($0)) }
            guard FakePasswordHash.matches(password, user: user) else { throw wrong }
            return try attempt(prechecked: user)
        }
    }
}

/// Thrown inside a transaction that met an imported password hash: it is checked outside instead.
private struct SlowHashOutsideTransaction: Error {}

extension UserRecord {
    /// The same account with the same stored password as `other`: what was checked still holds.
    func hasSamePassword(as other: UserRecord) -> Bool {
        localId == other.localId && passwordHash == other.passwordHash && salt == other.salt
            && importedPasswordHash == other.importedPasswordHash
    }
}
