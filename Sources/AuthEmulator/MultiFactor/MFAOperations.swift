import JOSE
import JSON

/// v2 `accounts/mfaEnrollment:*` and `accounts/mfaSignIn:*` (reference §10, Apple SDK wire §3.14):
/// SMS second factors as the official emulator has them, and TOTP, which it lacks.
enum MFAOperations {
    /// TOTP as production's provider config has it: six digits, 30 s steps, SHA-1, and five
    /// adjacent steps either side accepted for clock drift.
    static let totpDigits = 6
    static let totpPeriodSeconds: Int64 = 30
    static let totpAdjacentIntervals: Int64 = 5
    /// How long a TOTP enrollment may take between start and finalize.
    static let totpEnrollmentSeconds: Int64 = 600

    private static let ineligibleFirstFactors: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com"]

    // MARK: Enrollment

    static func startEnrollment(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        try BlockingFunctions.beforeSending(request, .beforeSendSms) {
            guard let number = try body.nested("phoneEnrollmentInfo")?.nonEmptyString("phoneNumber"), PhoneNumber.isValid(number)
            else { return nil }
            return ["phone_number": .string(number), "sms_type": "MULTI_FACTOR_ENROLLMENT"]
        }
        return try request.write { transaction in
            try transaction.requireEnabled(factorGate(body, totpField: "totpEnrollmentInfo", phoneField: "phoneEnrollmentInfo"))
            let (user, _) = try enrollingUser(body, in: transaction)
            if let phone = try body.nested("phoneEnrollmentInfo") {
                guard let number = try phone.nonEmptyString("phoneNumber"), PhoneNumber.isValid(number) else {
                    throw AuthError.invalid("INVALID_PHONE_NUMBER : Invalid format.")
                }
                try refuseDuplicate(number, of: user)
                let session = try transaction.sendSMSCode(to: number, purpose: .mfaEnrollment, localId: user.localId)
                return ["phoneSessionInfo": ["sessionInfo": .string(session)]]
            }
            guard body.has("totpEnrollmentInfo") else {
                throw AuthError.invalid("INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
            }
            let secret = SecureRandom.bytes(20)
            let sessionInfo = transaction.identifiers.opaqueToken(bytes: 48)
            let finalizeBy = transaction.now.adding(seconds: totpEnrollmentSeconds)
            try transaction.store.verificationSessions.insert(
                VerificationSession(
                    sessionInfo: sessionInfo, scope: transaction.scope, purpose: .totpEnrollment,
                    totpSecret: Base32.encode(secret), localId: user.localId, createdAt: transaction.now, expiresAt: finalizeBy))
            let account = user.email ?? user.phoneNumber ?? user.localId
            return [
                "totpSessionInfo": [
                    "sharedSecretKey": .string(Base32.encode(secret)), "verificationCodeLength": .int(Int64(totpDigits)),
                    "hashingAlgorithm": "SHA1", "periodSec": .int(totpPeriodSeconds), "sessionInfo": .string(sessionInfo),
                    "finalizeEnrollmentTime": .string(finalizeBy.rfc3339),
                    // Not in production's answer: the URI an authenticator app scans, for tests and people.
                    "otpauthUri": .string(
                        "otpauth://totp/\(URIComponent.encode("project-\(transaction.scope.projectId)")):\(URIComponent.encode(account))?secret=\(Base32.encode(secret))&issuer=\(URIComponent.encode("project-\(transaction.scope.projectId)"))&algorithm=SHA1&digits=\(totpDigits)&period=\(totpPeriodSeconds)"),
                ]
            ]
        }
    }

    static func finalizeEnrollment(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        if try body.nested("phoneVerificationInfo")?.has("androidVerificationProof") == true {
            throw AuthError.notImplemented("androidVerificationProof is unsupported!")
        }
        return try request.writeGrantingTokens { transaction in
            try transaction.requireEnabled(factorGate(body, totpField: "totpVerificationInfo", phoneField: "phoneVerificationInfo"))
            var (user, signInProvider) = try enrollingUser(body, in: transaction)
            let factor: MFAEnrollment.Factor
            if let phone = try body.nested("phoneVerificationInfo") {
                let session = try transaction.redeemSMSCode(
                    sessionInfo: try phone.nonEmptyString("sessionInfo"), code: try phone.nonEmptyString("code"),
                    purpose: .mfaEnrollment)
                guard session.localId == user.localId, let number = session.phoneNumber else {
                    throw AuthError.invalid("INVALID_SESSION_INFO")
                }
                try refuseDuplicate(number, of: user)
                factor = .phone(number)
            } else if let totp = try body.nested("totpVerificationInfo") {
                factor = .totp(secret: try redeemTOTPEnrollment(totp, for: user, in: transaction))
            } else {
                throw AuthError.invalid("INVALID_ARGUMENT : ((Missing phoneVerificationInfo.))")
            }
            let enrollment = MFAEnrollment(
                mfaEnrollmentId: transaction.identifiers.alphanumeric(28), displayName: try body.nonEmptyString("displayName"),
                enrolledAt: transaction.now, factor: factor)
            user.mfaEnrollments.append(enrollment)
            let tokens = try transaction.saveGrantingTokens(
                for: &user, signInProvider: signInProvider, secondFactor: secondFactorClaim(enrollment))
            return TokenAnswer(fields: [:], tokens: tokens, includesExpiry: false)
        }
    }

    static func withdraw(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        return try request.writeGrantingTokens { transaction in
            try transaction.requireEnabled()
            guard let idToken = try body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
            let authenticated = try transaction.authenticate(idToken: idToken)
            var user = authenticated.user
            guard let id = try body.nonEmptyString("mfaEnrollmentId"), user.mfaEnrollments.contains(where: { $0.mfaEnrollmentId == id })
            else { throw AuthError.invalid("MFA_ENROLLMENT_NOT_FOUND") }
            user.mfaEnrollments.removeAll { $0.mfaEnrollmentId == id }
            user.listsWithdrawnFactors = user.mfaEnrollments.isEmpty
            return TokenAnswer(
                fields: [:], tokens: try transaction.saveGrantingTokens(for: &user, signInProvider: authenticated.signInProvider))
        }
    }

    // MARK: Sign-in with a second factor

    static func startSignIn(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        // The factor's number is known only from the pending user: read it, ask the function, then write.
        try BlockingFunctions.beforeSending(request, .beforeSendSms) {
            guard
                let pending = try? PendingCredential(
                    decoding: try body.nonEmptyString("mfaPendingCredential"), in: request.scope, missing: AuthError.invalid("")),
                let id = try body.nonEmptyString("mfaEnrollmentId"),
                let number = try request.read({ try $0.users.user(localId: pending.localId, in: $0.scope) })?
                    .mfaEnrollments.first(where: { $0.mfaEnrollmentId == id })?.phoneNumber
            else { return nil }
            return ["phone_number": .string(number), "sms_type": "MULTI_FACTOR_SIGN_IN"]
        }
        return try request.write { transaction in
            try transaction.requireEnabled(.smsSecondFactor)
            let (pending, user) = try pendingSignIn(
                body, missing: AuthError.invalid("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential."),
                in: transaction)
            guard let id = try body.nonEmptyString("mfaEnrollmentId") else {
                throw AuthError.invalid("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            }
            guard let enrollment = user.mfaEnrollments.first(where: { $0.mfaEnrollmentId == id }) else {
                throw AuthError.invalid("MFA_ENROLLMENT_NOT_FOUND")
            }
            // TOTP has no start step: the app asks the user for the authenticator's code.
            guard let number = enrollment.phoneNumber else { throw AuthError.invalid("INVALID_ARGUMENT : MFA provider not supported!") }
            let session = try transaction.sendSMSCode(to: number, purpose: .mfaSignIn, localId: pending.localId)
            return ["phoneResponseInfo": ["sessionInfo": .string(session)]]
        }
    }

    static func finalizeSignIn(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        if try body.nested("phoneVerificationInfo")?.has("androidVerificationProof") == true {
            throw AuthError.notImplemented("androidVerificationProof is unsupported!")
        }
        let missing = AuthError.invalid("MISSING_CREDENTIAL : Please set MFA Pending Credential.")
        // Checked the same way in the blocking functions' draft (a read) and in the write; only
        // the write uses the SMS code up.
        let gate = factorGate(body, totpField: "totpVerificationInfo", phoneField: "phoneVerificationInfo")
        let decide = { (transaction: AccountsTransaction) throws -> (PendingCredential, UserRecord, MFAEnrollment, String?) in
            try transaction.requireEnabled(gate)
            let (pending, user) = try pendingSignIn(body, missing: missing, in: transaction)
            if let phone = try body.nested("phoneVerificationInfo") {
                let session = try transaction.checkSMSCode(
                    sessionInfo: try phone.nonEmptyString("sessionInfo"), code: try phone.nonEmptyString("code"),
                    purpose: .mfaSignIn)
                guard session.localId == user.localId,
                    let found = user.mfaEnrollments.first(where: { $0.phoneNumber == session.phoneNumber })
                else { throw AuthError.invalid("MFA_ENROLLMENT_NOT_FOUND") }
                return (pending, user, found, session.sessionInfo)
            }
            guard let totp = try body.nested("totpVerificationInfo") else {
                throw AuthError.invalid("INVALID_ARGUMENT : MFA provider not supported!")
            }
            guard let id = try body.nonEmptyString("mfaEnrollmentId") else {
                throw AuthError.invalid("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            }
            guard let found = user.mfaEnrollments.first(where: { $0.mfaEnrollmentId == id }), case .totp(let secret) = found.factor
            else { throw AuthError.invalid("MFA_ENROLLMENT_NOT_FOUND") }
            try checkTOTP(try totp.nonEmptyString("verificationCode"), secret: secret, now: transaction.now)
            return (pending, user, found, nil)
        }
        // beforeSignIn runs here, once the second factor is proven (the first factor skipped it).
        let firstFactor = (try? PendingCredential(
            decoding: try body.nonEmptyString("mfaPendingCredential"), in: request.scope, missing: missing))?.signInProvider
        let blocking = try BlockingFunctions.run(
            request, [.beforeSignIn], signInMethod: firstFactor ?? SignInProvider.password
        ) { transaction in try decide(transaction).1 }

        return try request.writeGrantingTokens { transaction in
            var (pending, user, enrollment, session) = try decide(transaction)
            guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
            try blocking.apply(to: &user)
            if let session { try transaction.store.verificationSessions.delete(session) }
            user.lastLoginAt = transaction.now
            var claims = pending.extraClaims ?? JSONObject()
            if let sessionClaims = blocking?.sessionClaims { claims.merge(sessionClaims) }
            pending.extraClaims = claims.isEmpty ? nil : claims
            let tokens = try transaction.saveGrantingTokens(
                for: &user, signInProvider: pending.signInProvider, extraClaims: pending.extraClaims,
                secondFactor: secondFactorClaim(enrollment))
            var response = JSONObject()
            if let number = enrollment.phoneNumber { response["phoneSessionInfo"] = ["phoneNumber": .string(number)] }
            return TokenAnswer(fields: response, tokens: tokens, includesExpiry: false)
        }
    }

    // MARK: Shared checks

    /// Which switch of the tenant's `mfaConfig` a request needs: TOTP only when it carries the TOTP
    /// field alone; otherwise SMS, the reference's only factor, whose check comes before any field's.
    private static func factorGate(_ body: RequestBody, totpField: String, phoneField: String) -> SignInGate {
        body.has(totpField) && !body.has(phoneField) ? .totpSecondFactor : .smsSecondFactor
    }

    /// The ID token's user, if its first factor can carry a second one and its email is verified.
    private static func enrollingUser(_ body: RequestBody, in transaction: AccountsTransaction) throws -> (UserRecord, String) {
        guard let idToken = try body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
        let authenticated = try transaction.authenticate(idToken: idToken)
        guard !ineligibleFirstFactors.contains(authenticated.signInProvider) else {
            throw AuthError.invalid("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        }
        guard authenticated.user.emailVerified == true else {
            throw AuthError.invalid("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
        }
        return (authenticated.user, authenticated.signInProvider)
    }

    private static func refuseDuplicate(_ number: String, of user: UserRecord) throws(AuthError) {
        if user.mfaEnrollments.contains(where: { $0.phoneNumber == number }) {
            throw AuthError.invalid("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
        }
    }

    private static func pendingSignIn(
        _ body: RequestBody, missing: AuthError, in transaction: AccountsTransaction
    ) throws -> (PendingCredential, UserRecord) {
        let pending = try PendingCredential(
            decoding: try body.nonEmptyString("mfaPendingCredential"), in: transaction.scope, missing: missing)
        guard let user = try transaction.users.user(localId: pending.localId, in: transaction.scope) else {
            throw AuthError.invalid("INVALID_MFA_PENDING_CREDENTIAL : ((User in pendingCredentialPayload does not exist.))")
        }
        return (pending, user)
    }

    private static func redeemTOTPEnrollment(
        _ totp: RequestBody, for user: UserRecord, in transaction: AccountsTransaction
    ) throws -> [UInt8] {
        guard let sessionInfo = try totp.nonEmptyString("sessionInfo") else { throw AuthError.invalid("MISSING_SESSION_INFO") }
        let sessions = transaction.store.verificationSessions
        guard let session = try sessions.session(sessionInfo, in: transaction.scope), session.purpose == .totpEnrollment,
            session.localId == user.localId, let secret = session.totpSecret.flatMap(Base32.decode)
        else { throw AuthError.invalid("INVALID_SESSION_INFO") }
        guard transaction.now <= session.expiresAt else {
            throw AuthError.invalid("SESSION_EXPIRED : The TOTP enrollment took too long; start it again.")
        }
        try checkTOTP(try totp.nonEmptyString("verificationCode"), secret: secret, now: transaction.now)
        try sessions.delete(sessionInfo)
        return secret
    }

    private static func checkTOTP(_ code: String?, secret: [UInt8], now: Instant) throws(AuthError) {
        guard let code, !code.isEmpty else { throw AuthError.invalid("MISSING_CODE") }
        guard TOTP.verify(
            code, secret: secret, unixSeconds: now.secondsSinceEpoch, window: totpAdjacentIntervals,
            periodSeconds: totpPeriodSeconds, digits: totpDigits)
        else { throw AuthError.invalid("INVALID_CODE") }
    }

    private static func secondFactorClaim(_ enrollment: MFAEnrollment) -> JSONObject {
        ["identifier": .string(enrollment.mfaEnrollmentId), "provider": .string(enrollment.providerName)]
    }
}
