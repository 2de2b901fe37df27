/// Finding and checking an email action code inside a transaction.
extension AccountsTransaction {
    /// The code if it exists here and is of `type` (any type when nil): `INVALID_OOB_CODE`
    /// otherwise, and `EXPIRED_OOB_CODE` once the emulator clock passes its expiry, as production.
    func oobCode(_ code: String?, ofType type: OobRequestType?) throws -> OobCodeRecord {
        guard let code, !code.isEmpty else { throw AuthError.invalid("MISSING_OOB_CODE") }
        guard let record = try store.oobCodes.code(code, in: scope), type == nil || record.requestType == type else {
            throw AuthError.invalid("INVALID_OOB_CODE")
        }
        guard now <= record.expiresAt else { throw AuthError.invalid("EXPIRED_OOB_CODE") }
        return record
    }
}
