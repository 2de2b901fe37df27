import JSON

/// `accounts:resetPassword` (reference §5.6): without `newPassword` it inspects any code; with one
/// it resets the password for a PASSWORD_RESET code.
enum ResetPassword {
    static func run(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        let code = try body.nonEmptyString("oobCode")
        let newPassword = try body.string("newPassword")
        return try request.write { transaction in
            try transaction.requireEnabled(.passwordSignIn)
            guard let newPassword else {
                let record = try transaction.oobCode(code, ofType: nil)
                // `email` for every type: the Apple SDK's checkActionCode crashes without it.
                var response: JSONObject = [
                    "kind": "identitytoolkit#ResetPasswordResponse", "requestType": .string(record.requestType.rawValue),
                ]
                response.setIfPresent("email", record.email.map { .string($0) })
                response.setIfPresent("newEmail", record.newEmail.map { .string($0) })
                return response
            }
            let record = try transaction.oobCode(code, ofType: .passwordReset)
            let email = try resetPassword(record, to: newPassword, in: transaction)
            return [
                "kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET", "email": .string(email),
            ]
        }
    }

    /// Sets the new password of the code's user and uses up the code; answers the email.
    static func resetPassword(_ record: OobCodeRecord, to newPassword: String, in transaction: AccountsTransaction) throws -> String {
        guard newPassword.count >= FakePasswordHash.minimumPasswordLength else { throw FakePasswordHash.weakPassword }
        guard let email = record.email, var user = try transaction.users.users(email: email, in: transaction.scope).first else {
            throw AuthError.invalid("INVALID_OOB_CODE")
        }
        try transaction.store.oobCodes.delete(record.code)
        try FakePasswordHash.setPassword(newPassword, on: &user, in: transaction)
        // Following the link proved the address; every older session ends. Linked providers stay
        // (the official emulator unlinks them; production does not).
        user.emailVerified = true
        user.validSinceSeconds = transaction.now.secondsSinceEpoch
        try transaction.users.save(&user)
        return email
    }
}
