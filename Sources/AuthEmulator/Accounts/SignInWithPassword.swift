import JSON

/// `accounts:signInWithPassword` (v3 `verifyPassword`), reference §9.2.
enum SignInWithPassword {
    static func run(_ request: OperationRequest) throws -> JSONObject {
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

        let verify = { (transaction: AccountsTransaction) throws -> UserRecord in
            try transaction.requireEnabled(.passwordSignIn)
            let hidesWhetherEmailExists = try transaction.config().improvedEmailPrivacy
            let candidate = try transaction.users.users(email: canonical, in: transaction.scope).first
            guard let user = candidate else {
                throw AuthError.invalid(hidesWhetherEmailExists ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
            }
            guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
            guard FakePasswordHash.matches(password, user: user) else {
                throw AuthError.invalid(hidesWhetherEmailExists ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD")
            }
            return user
        }
        // The password is checked in a read, not under the write lock: an imported scrypt or bcrypt
        // hash takes tens of milliseconds. The write only confirms the hash is still the one that matched.
        let matched = try request.read(verify)
        // beforeSignIn is skipped while a second factor is pending (mfaSignIn:finalize would call it).
        let blocking = try BlockingFunctions.run(request, [.beforeSignIn], signInMethod: SignInProvider.password) { transaction in
            try transaction.enforcesSecondFactors && !matched.mfaEnrollments.isEmpty ? nil : matched
        }

        return try request.write { transaction in
            var user: UserRecord
            if let current = try transaction.users.users(email: canonical, in: transaction.scope).first,
                current.hasSamePassword(as: matched), !current.disabled
            {
                user = current
            } else {
                user = try verify(transaction)  // it changed in between: check again
            }
            try blocking.apply(to: &user)
            var response: JSONObject = [
                "kind": "identitytoolkit#VerifyPasswordResponse", "registered": true, "localId": .string(user.localId),
                "email": .string(canonical),
            ]
            response.setIfPresent("displayName", user.displayName.map { .string($0) })
            response.setIfPresent("photoUrl", user.photoUrl.map { .string($0) })
            response.merge(
                try transaction.completeFirstFactor(
                    &user, signInProvider: SignInProvider.password, extraClaims: blocking.sessionClaims))
            return response
        }
    }
}

extension UserRecord {
    /// The same account with the same stored password as `other`: what was checked still holds.
    func hasSamePassword(as other: UserRecord) -> Bool {
        localId == other.localId && passwordHash == other.passwordHash && salt == other.salt
            && importedPasswordHash == other.importedPasswordHash
    }
}
