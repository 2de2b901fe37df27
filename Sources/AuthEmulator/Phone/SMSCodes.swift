import JOSE

/// Sending and checking SMS codes: one session per code, in the store, expiring by the emulator
/// clock; fictional test numbers get their fixed code and no SMS, as production's console allows.
extension AccountsTransaction {
    /// Production's SMS codes are good for five minutes.
    static let smsCodeLifetimeSeconds: Int64 = 300

    /// Makes a code for `phoneNumber` and "sends" it; answers the `sessionInfo`.
    func sendSMSCode(to phoneNumber: String, purpose: VerificationPurpose, localId: String? = nil) throws -> String {
        let sessionInfo = identifiers.opaqueToken(bytes: 168)
        let testCode = try config().testPhoneNumbers[phoneNumber]
        let code = testCode ?? Self.sixDigits()
        try store.verificationSessions.insert(
            VerificationSession(
                sessionInfo: sessionInfo, scope: scope, purpose: purpose, phoneNumber: phoneNumber, code: code,
                localId: localId, createdAt: now, expiresAt: now.adding(seconds: Self.smsCodeLifetimeSeconds)))
        if testCode == nil { try Outbox(transaction: self).sendCode(code, to: phoneNumber, purpose: purpose) }
        return sessionInfo
    }

    /// Checks `code` against the session and uses it up (in this transaction, so a refused request
    /// leaves it usable). Errors as the reference and production name them.
    func redeemSMSCode(sessionInfo: String?, code: String?, purpose: VerificationPurpose) throws -> VerificationSession {
        let session = try checkSMSCode(sessionInfo: sessionInfo, code: code, purpose: purpose)
        try store.verificationSessions.delete(session.sessionInfo)
        return session
    }

    /// As `redeemSMSCode`, without using the code up: a draft that a write repeats.
    func checkSMSCode(sessionInfo: String?, code: String?, purpose: VerificationPurpose) throws -> VerificationSession {
        guard let code, !code.isEmpty else { throw AuthError.invalid("MISSING_CODE") }
        guard let sessionInfo, !sessionInfo.isEmpty else { throw AuthError.invalid("MISSING_SESSION_INFO") }
        guard let session = try store.verificationSessions.session(sessionInfo, in: scope), session.purpose == purpose,
            session.code != nil
        else { throw AuthError.invalid("INVALID_SESSION_INFO") }
        guard now <= session.expiresAt else {
            throw AuthError.invalid("SESSION_EXPIRED : The SMS code has expired. Please re-send the verification code to try again.")
        }
        guard session.code == code else { throw AuthError.invalid("INVALID_CODE") }
        return session
    }

    private static func sixDigits() -> String {
        let bytes = SecureRandom.bytes(4)
        let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        return String(value).leftPadded(to: 6)
    }
}
