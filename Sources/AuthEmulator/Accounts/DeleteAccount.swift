import JSON

/// `accounts:delete` (v3 `deleteAccount`), reference §8.6.
enum DeleteAccount {
    static func run(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        try request.write { transaction in
            try transaction.requireEnabled()
            let localId: String
            if request.isPrivileged {
                guard let requested = try body.nonEmptyString("localId") else { throw AuthError.invalid("MISSING_LOCAL_ID") }
                guard try transaction.users.localIdExists(requested, in: transaction.scope) else {
                    throw AuthError.invalid("USER_NOT_FOUND")
                }
                localId = requested
            } else {
                guard let idToken = try body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
                localId = try transaction.authenticate(idToken: idToken).user.localId
            }
            try transaction.users.delete(localId: localId, in: transaction.scope)
        }
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }
}
