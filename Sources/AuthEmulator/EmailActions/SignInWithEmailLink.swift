import JSON

/// `accounts:signInWithEmailLink` (v3 `emailLinkSignin`), reference §6, made production-faithful
/// (DESIGN §2.2): a refused request changes nothing, so the code stays usable; signing in to an
/// account whose email was never verified removes its password and revokes its older sessions.
enum SignInWithEmailLink {
    /// The answer is written member by member after the commit (`TokenAnswer.written`), as
    /// sign-up's and password sign-in's are, not built as an object and encoded.
    static func run(_ request: OperationRequest) throws -> OperationResult {
        try request.requireEnabledBeforeFields(.emailLink)
        let body = request.body
        let idToken = try body.nonEmptyString("idToken")
        let email = try body.nonEmptyString("email").map(EmailAddress.canonical)
        let code = try body.nonEmptyString("oobCode")

        let newLocalId = request.environment.identifiers.alphanumeric(28)
        let draft = { (transaction: AccountsTransaction) throws -> (user: UserRecord, isNew: Bool, code: String) in
            try transaction.requireEnabled(.emailLink)
            let linking = try idToken.map { try transaction.authenticate(idToken: $0).user }
            guard let email else { throw AuthError.invalid("MISSING_EMAIL") }
            let record = try transaction.oobCode(code, ofType: .emailSignIn)
            guard record.email == email else {
                throw AuthError.invalid("INVALID_EMAIL : The email provided does not match the sign-in email address.")
            }
            let owner = try transaction.users.users(email: email, in: transaction.scope).first
            if let linking, let owner, owner.localId != linking.localId { throw AuthError.invalid("EMAIL_EXISTS") }

            var user: UserRecord
            var isNewUser = false
            if let existing = linking ?? owner {
                user = existing
                guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
                if linking == nil, user.emailVerified != true, user.hasPassword {
                    // Whoever set that password never proved the address; the link just did.
                    user.passwordHash = nil
                    user.salt = nil
                    user.validSinceSeconds = transaction.now.secondsSinceEpoch
                }
            } else {
                user = UserRecord(localId: newLocalId, scope: transaction.scope, createdAt: transaction.now)
                isNewUser = true
            }
            user.email = email
            user.emailVerified = true
            user.emailLinkSignin = true
            return (user, isNewUser, record.code)
        }
        // Linking (`idToken`) signs in too: beforeSignIn runs for it, and a user with second
        // factors still stops at mfaPendingCredential, as in the reference.
        let blocking = try BlockingFunctions.run(request, [.beforeCreate, .beforeSignIn], signInMethod: "emailLink") {
            transaction -> BlockingDraft? in
            let drafted = try draft(transaction)
            if try transaction.enforcesSecondFactors && !drafted.user.mfaEnrollments.isEmpty { return nil }
            return BlockingDraft(user: drafted.user, isNew: drafted.isNew)
        }

        return try request.writeGrantingTokensAnswer { transaction in
            let drafted = try draft(transaction)
            var user = drafted.user
            try blocking.apply(to: &user)
            // Single use, consumed in the same transaction as the sign-in it allows.
            try transaction.store.oobCodes.delete(drafted.code)

            let response: JSONObject = [
                "kind": "identitytoolkit#EmailLinkSigninResponse", "email": .string(user.email ?? ""),
                "localId": .string(user.localId), "isNewUser": .bool(drafted.isNew),
            ]
            return try transaction.completeFirstFactor(
                &user, signInProvider: SignInProvider.password, extraClaims: blocking.sessionClaims, answering: response)
        }
    }
}
