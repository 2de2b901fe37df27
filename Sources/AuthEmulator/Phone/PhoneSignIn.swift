import JSON

/// Phone sign-in (reference §9.3, Apple SDK wire §3.15): `sendVerificationCode` texts a code,
/// `signInWithPhoneNumber` (v3 `verifyPhoneNumber`) signs in, links or re-authenticates with it.
enum PhoneSignIn {
    static let temporaryProofLifetimeSeconds: Int64 = 3600

    static func sendVerificationCode(_ request: OperationRequest) throws -> JSONObject {
        try refuseTenant(request)
        guard let phoneNumber = try request.body.nonEmptyString("phoneNumber"), PhoneNumber.isValid(phoneNumber) else {
            throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format.")
        }
        try BlockingFunctions.beforeSending(request, .beforeSendSms) {
            ["phone_number": .string(phoneNumber), "sms_type": "SIGN_IN_OR_SIGN_UP"]
        }
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

    /// What a phone sign-in comes to, worked out the same way in the blocking functions' draft
    /// (a read) and in the write.
    private enum Outcome {
        /// The number is someone else's: a proof lets the app sign in as them.
        case numberTakenByAnother(String)
        case signIn(user: UserRecord, isNew: Bool, phoneNumber: String, session: String?)
    }

    /// Phone sign-in is the project's only; a disabled tenant answers `PROJECT_DISABLED` first, as in
    /// the reference.
    private static func refuseTenant(_ request: OperationRequest) throws {
        guard request.scope.tenantId != nil else { return }
        try request.read { try $0.requireEnabled() }
        throw AuthError.invalid("UNSUPPORTED_TENANT_OPERATION")
    }

    static func signIn(_ request: OperationRequest) throws -> JSONObject {
        try refuseTenant(request)
        let body = request.body
        let idToken = try body.nonEmptyString("idToken")
        let temporaryProof = try body.nonEmptyString("temporaryProof")
        let operation = try body.nonEmptyString("operation") ?? "SIGN_UP_OR_IN"
        let newLocalId = request.environment.identifiers.alphanumeric(28)

        let decide = { (transaction: AccountsTransaction) throws -> Outcome in
            try transaction.requireEnabled(.phone)
            let linking = try idToken.map { try transaction.authenticate(idToken: $0) }
            let phoneNumber: String
            var session: String?
            if let temporaryProof {
                guard let claimed = try body.nonEmptyString("phoneNumber") else { throw AuthError.invalid("MISSING_PHONE_NUMBER") }
                let proven = try transaction.store.verificationSessions.temporaryProof(
                    temporaryProof, in: transaction.scope, now: transaction.now)
                guard proven == claimed else { throw AuthError.invalid("INVALID_TEMPORARY_PROOF") }
                phoneNumber = claimed
            } else {
                let checked = try transaction.checkSMSCode(
                    sessionInfo: try body.nonEmptyString("sessionInfo"), code: try body.nonEmptyString("code"),
                    purpose: .phoneSignIn)
                phoneNumber = checked.phoneNumber ?? ""
                session = checked.sessionInfo
            }
            let owner = try transaction.users.user(phoneNumber: phoneNumber, in: transaction.scope)
            if var linked = linking?.user {
                if let owner, owner.localId != linked.localId {
                    if temporaryProof != nil { throw AuthError.invalid("PHONE_NUMBER_EXISTS") }
                    return .numberTakenByAnother(phoneNumber)
                }
                guard linked.mfaEnrollments.isEmpty else { throw unsupportedFirstFactor }
                linked.phoneNumber = phoneNumber
                return .signIn(user: linked, isNew: false, phoneNumber: phoneNumber, session: session)
            }
            if let owner {
                guard !owner.disabled else { throw AuthError.invalid("USER_DISABLED") }
                guard owner.mfaEnrollments.isEmpty else { throw unsupportedFirstFactor }
                return .signIn(user: owner, isNew: false, phoneNumber: phoneNumber, session: session)
            }
            // Re-authentication proves an existing account; it never makes one.
            guard operation != "REAUTH" else { throw AuthError.invalid("USER_NOT_FOUND") }
            var user = UserRecord(localId: newLocalId, scope: transaction.scope, createdAt: transaction.now)
            user.phoneNumber = phoneNumber
            return .signIn(user: user, isNew: true, phoneNumber: phoneNumber, session: session)
        }
        // Linking is no sign-in: no blocking function runs for it.
        let blocking = try BlockingFunctions.run(
            request, idToken == nil ? [.beforeCreate, .beforeSignIn] : [], signInMethod: SignInProvider.phone
        ) { transaction -> BlockingDraft? in
            guard case .signIn(let user, let isNew, _, _) = try decide(transaction) else { return nil }
            return BlockingDraft(user: user, isNew: isNew)
        }

        return try request.writeGrantingTokens { transaction in
            let sessions = transaction.store.verificationSessions
            switch try decide(transaction) {
            case .numberTakenByAnother(let phoneNumber):
                if let session = try body.nonEmptyString("sessionInfo") { try sessions.delete(session) }
                let proof = transaction.identifiers.opaqueToken(bytes: 88)
                try sessions.insertTemporaryProof(
                    proof, phoneNumber: phoneNumber, scope: transaction.scope,
                    expiresAt: transaction.now.adding(seconds: temporaryProofLifetimeSeconds))
                return TokenAnswer(fields: [
                    "phoneNumber": .string(phoneNumber), "temporaryProof": .string(proof),
                    "temporaryProofExpiresIn": .string(String(temporaryProofLifetimeSeconds)),
                ])
            case .signIn(var user, let isNew, let phoneNumber, let session):
                try blocking.apply(to: &user)
                // Used up in the same transaction as the sign-in it allows.
                if let session { try sessions.delete(session) }
                user.lastLoginAt = transaction.now
                let response: JSONObject = [
                    "isNewUser": .bool(isNew), "phoneNumber": .string(phoneNumber), "localId": .string(user.localId),
                ]
                return TokenAnswer(
                    fields: response,
                    tokens: try transaction.saveGrantingTokens(
                        for: &user, signInProvider: SignInProvider.phone, extraClaims: blocking?.sessionClaims))
            }
        }
    }

    /// The official `verificationCodes` list: codes sent and not used yet.
    static func verificationCodes(_ request: OperationRequest) throws -> JSONObject {
        let sessions = try request.read { try $0.store.verificationSessions.smsSessions(in: $0.scope) }
        if sessions.isEmpty { UnseenProjectHint.logIfUnseen(request, listing: "verificationCodes") }
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
