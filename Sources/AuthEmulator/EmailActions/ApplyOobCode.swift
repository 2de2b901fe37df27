import JSON

/// `accounts:update` with an `oobCode` (v3 `setAccountInfo`, the Apple SDK's `applyActionCode`),
/// reference §8.2: verify an email, change it, or take a change back. The code is used up in the
/// same transaction, so a refused code stays usable, except when the address it would move the
/// account to is taken: then, as in the reference, the code is spent and the answer is `EMAIL_EXISTS`.
enum ApplyOobCode {
    static func run(_ request: OperationRequest, code: String?) throws -> JSONObject {
        let outcome = try request.write { transaction -> Result<JSONObject, AuthError> in
            let record = try transaction.oobCode(code, ofType: nil)
            let users = transaction.users
            let scope = transaction.scope
            var user: UserRecord
            var response: JSONObject = ["kind": "identitytoolkit#SetAccountInfoResponse"]
            switch record.requestType {
            case .verifyEmail:
                guard let email = record.email, let owner = try users.users(email: email, in: scope).first else {
                    throw AuthError.invalid("INVALID_OOB_CODE")
                }
                user = owner
            case .verifyAndChangeEmail:
                guard let email = record.email, let owner = try users.users(email: email, in: scope).first else {
                    throw AuthError.invalid("INVALID_OOB_CODE")
                }
                guard let newEmail = record.newEmail else { throw AuthError.invalid("MISSING_NEW_EMAIL") }
                if try !users.users(email: newEmail, in: scope).isEmpty { return try spend(record, in: transaction) }
                user = owner
                user.email = newEmail
                response["newEmail"] = .string(newEmail)
            case .recoverEmail:
                // The code was sent to the address to restore, which the account keeps as initialEmail.
                guard let restored = record.email, let owner = try users.users(initialEmail: restored, in: scope).first else {
                    throw AuthError.invalid("INVALID_OOB_CODE")
                }
                if try users.users(email: restored, in: scope).contains(where: { $0.localId != owner.localId }) {
                    return try spend(record, in: transaction)
                }
                user = owner
                user.email = restored
            case .passwordReset, .emailSignIn:
                throw AuthError.notImplemented(record.requestType.rawValue)
            }
            user.emailVerified = true
            try transaction.store.oobCodes.delete(record.code)
            try users.save(&user)
            response["localId"] = .string(user.localId)
            response.setIfPresent("email", user.email.map { .string($0) })
            response["emailVerified"] = true
            return .success(response)
        }
        return try outcome.get()
    }

    /// Deletes a code whose address is taken; the deletion commits and the request answers `EMAIL_EXISTS`.
    private static func spend(_ record: OobCodeRecord, in transaction: AccountsTransaction) throws -> Result<JSONObject, AuthError> {
        try transaction.store.oobCodes.delete(record.code)
        return .failure(AuthError.invalid("EMAIL_EXISTS"))
    }
}

/// The mail production sends to the old address when an account's email changes, with a link
/// that takes the change back (reference §8.1, mode `recoverEmail`).
enum RecoverEmailNotice {
    static func send(for user: UserRecord, previousEmail: String, origin: String, in transaction: AccountsTransaction) throws {
        let code = transaction.identifiers.opaqueToken(bytes: 40)
        let links = ActionLinks(
            origin: origin, requestType: .recoverEmail, code: code, apiKey: SendOobCode.linkAPIKey, continueUrl: nil,
            tenantId: transaction.scope.tenantId, projectId: transaction.scope.projectId, app: .init())
        let record = OobCodeRecord(
            code: code, scope: transaction.scope, requestType: .recoverEmail, email: previousEmail, newEmail: user.email,
            oobLink: links.oobLink, continueUrl: nil, createdAt: transaction.now,
            expiresAt: transaction.now.adding(seconds: OobRequestType.recoverEmail.lifetimeSeconds))
        try transaction.store.oobCodes.insert(record)
        try Outbox(transaction: transaction).send(
            .init(type: .recoverEmail, to: previousEmail, newEmail: user.email, displayName: user.displayName, code: record, links: links))
    }
}
