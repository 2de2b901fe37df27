import JSON

/// Phone sign-in (reference §9.3, Apple SDK wire §3.15): `sendVerificationCode` texts a code,
/// `signInWithPhoneNumber` (v3 `verifyPhoneNumber`) signs in, links or re-authenticates with it.
enum PhoneSignIn {
    static let temporaryProofLifetimeSeconds: Int64 = 3600

    static func sendVerificationCode(_ request: OperationRequest) throws -> JSONObject {
        guard request.scope.tenantId == nil else { throw AuthError.invalid("UNSUPPORTED_TENANT_OPERATION") }
        guard let phoneNumber = try request.body.nonEmptyString("phoneNumber"), PhoneNumber.isValid(phoneNumber) else {
            throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format.")
        }
        try BlockingFunctions.beforeSending(
            request, .beforeSendSms, details: ["phone_number": .string(phoneNumber), "sms_type": "SIGN_IN_OR_SIGN_UP"])
        let sessionInfo = try request.write { transaction in
            try transaction.requireEnabled(.phone)
            if let owner = try transaction.users.user(phoneNumber: phoneNumber, in: transaction.scope), !owner.mfaEnrollments.isEmpty {
                throw unsupportedFirstFactor
            }
            return try transaction.sendSMSCode(to: phoneNumber, purpose: .phoneSignIn)
        }
        return ["sessionInfo": .string(sessionInfo)]
    }

    private static let unsupportedFirstFactor = AuthError.invalid(
        "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")

    static func signIn(_ request: OperationRequest) throws -> JSONObject {
        guard request.scope.tenantId == nil else { throw AuthError.invalid("UNSUPPORTED_TENANT_OPERATION") }
        let body = request.body
        let idToken = try body.nonEmptyString("idToken")
        let temporaryProof = try body.nonEmptyString("temporaryProof")
        let operation = try body.nonEmptyString("operation") ?? "SIGN_UP_OR_IN"

        return try request.write { transaction in
            try transaction.requireEnabled(.phone)
            let linking = try idToken.map { try transaction.authenticate(idToken: $0) }
            let sessions = transaction.store.verificationSessions
            let phoneNumber: String
            if let temporaryProof {
                guard let claimed = try body.nonEmptyString("phoneNumber") else { throw AuthError.invalid("MISSING_PHONE_NUMBER") }
                guard try sessions.temporaryProof(temporaryProof, in: transaction.scope, now: transaction.now) == claimed else {
                    throw AuthError.invalid("INVALID_TEMPORARY_PROOF")
                }
                phoneNumber = claimed
            } else {
                let session = try transaction.redeemSMSCode(
                    sessionInfo: try body.nonEmptyString("sessionInfo"), code: try body.nonEmptyString("code"),
                    purpose: .phoneSignIn)
                phoneNumber = session.phoneNumber ?? ""
            }
            let owner = try transaction.users.user(phoneNumber: phoneNumber, in: transaction.scope)

            var user: UserRecord
            var isNewUser = false
            if var linked = linking?.user {
                if let owner, owner.localId != linked.localId {
                    if temporaryProof != nil { throw AuthError.invalid("PHONE_NUMBER_EXISTS") }
                    // Someone else has the number: hand back a proof so the app can sign in as them.
                    let proof = transaction.identifiers.opaqueToken(bytes: 88)
                    try sessions.insertTemporaryProof(
                        proof, phoneNumber: phoneNumber, scope: transaction.scope,
                        expiresAt: transaction.now.adding(seconds: temporaryProofLifetimeSeconds))
                    return [
                        "phoneNumber": .string(phoneNumber), "temporaryProof": .string(proof),
                        "temporaryProofExpiresIn": .string(String(temporaryProofLifetimeSeconds)),
                    ]
                }
                linked.phoneNumber = phoneNumber
                user = linked
            } else if let owner {
                guard !owner.disabled else { throw AuthError.invalid("USER_DISABLED") }
                guard owner.mfaEnrollments.isEmpty else { throw unsupportedFirstFactor }
                user = owner
            } else {
                // Re-authentication proves an existing account; it never makes one.
                guard operation != "REAUTH" else { throw AuthError.invalid("USER_NOT_FOUND") }
                user = UserRecord(localId: transaction.identifiers.alphanumeric(28), scope: transaction.scope, createdAt: transaction.now)
                user.phoneNumber = phoneNumber
                isNewUser = true
            }
            user.lastLoginAt = transaction.now
            var response: JSONObject = [
                "isNewUser": .bool(isNewUser), "phoneNumber": .string(phoneNumber), "localId": .string(user.localId),
            ]
            response.merge(try transaction.saveIssuingTokens(for: &user, signInProvider: SignInProvider.phone).json)
            return response
        }
    }

    /// The official `verificationCodes` list: codes sent and not used yet.
    static func verificationCodes(_ request: OperationRequest) throws -> JSONObject {
        let sessions = try request.read { try $0.store.verificationSessions.smsSessions(in: $0.scope) }
        return [
            "verificationCodes": .array(
                sessions.map { session in
                    [
                        "code": .string(session.code ?? ""), "phoneNumber": .string(session.phoneNumber ?? ""),
                        "sessionInfo": .string(session.sessionInfo),
                    ]
                })
        ]
    }

    /// `accounts:verifyIosClient` (v3 `verifyClient`): the APNs check an app makes outside the
    /// emulator's phone flow; answered so that the SDK, which crashes without them, gets both fields.
    static func verifyIosClient(_ request: OperationRequest) throws -> JSONObject {
        guard try request.body.nonEmptyString("appToken") != nil else { throw AuthError.invalid("MISSING_APP_TOKEN") }
        return ["receipt": .string(request.environment.identifiers.opaqueToken(bytes: 32)), "suggestedTimeout": "5"]
    }
}
