import JSON

/// The reference emulator's loose input rules; production is stricter, but tests written against
/// the official emulator rely on these.
enum EmailAddress {
    /// `something@something`, with exactly one `@`.
    static func isValid(_ email: String) -> Bool {
        if let ascii = email.utf8.withContiguousStorageIfAvailable(asciiIsValid), let valid = ascii { return valid }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// `isValid` for ASCII text, where each byte is one Character; nil for any other text, whose
    /// `@` could carry a combining mark and so not split it. Splitting into Characters cost ~8k
    /// instructions of a password sign-in (callgrind).
    private static func asciiIsValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var at: Int?
        var atCount = 0
        for (index, byte) in bytes.enumerated() {
            if byte >= 0x80 { return nil }
            if byte == UInt8(ascii: "@") {
                at = index
                atCount += 1
            }
        }
        guard atCount == 1, let at else { return false }
        return at > 0 && at < bytes.count - 1
    }

    static func canonical(_ email: String) -> String { email.lowercased() }

    /// What follows the last `@`, if anything does.
    static func domain(of email: String) -> String? {
        guard let at = email.lastIndex(of: "@"), email.index(after: at) < email.endIndex else { return nil }
        return String(email[email.index(after: at)...])
    }
}

enum PhoneNumber {
    /// A leading `+` and something after it, as in the reference emulator (production wants E.164).
    static func isValid(_ phoneNumber: String) -> Bool {
        phoneNumber.hasPrefix("+") && phoneNumber.count > 1
    }
}

/// The reference emulator's stand-in for a password hash: readable, so tests can inspect it, and
/// in the format its export files use, so they import unchanged.
enum FakePasswordHash {
    static let minimumPasswordLength = 6
    static let weakPassword = AuthError.invalid("WEAK_PASSWORD : Password should be at least 6 characters")

    /// `fakeHash:salt=<salt>:password=<password>`, made in one allocation: the interpolation grew
    /// its string three times, ~2k instructions of every read of a user with a password (callgrind).
    static func hash(_ password: String, salt: String) -> String {
        let prefix: StaticString = "fakeHash:salt="
        let separator: StaticString = ":password="
        let count = prefix.utf8CodeUnitCount + salt.utf8.count + separator.utf8CodeUnitCount + password.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            let start = buffer.baseAddress!
            let afterPrefix = prefix.withUTF8Buffer { copy($0, to: start) }
            let afterSalt = copy(salt, to: afterPrefix)
            let afterSeparator = separator.withUTF8Buffer { copy($0, to: afterSalt) }
            return copy(password, to: afterSeparator) - start
        }
    }

    /// Copies `bytes` to `destination`; returns the position after them.
    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        if let source = bytes.baseAddress { destination.initialize(from: source, count: bytes.count) }
        return destination + bytes.count
    }

    private static func copy(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var text = text
        return text.withUTF8 { copy($0, to: destination) }
    }

    static func newSalt(_ identifiers: any IdentifierSource) -> String {
        "fakeSalt" + identifiers.alphanumeric(20)
    }

    /// Sets a new password on `user`, or throws `WEAK_PASSWORD`.
    static func setPassword(_ password: String, on user: inout UserRecord, in transaction: AccountsTransaction) throws {
        guard password.count >= minimumPasswordLength else { throw weakPassword }
        let salt = newSalt(transaction.identifiers)
        user.salt = salt
        user.passwordHash = hash(password, salt: salt)
        user.importedPasswordHash = nil
        user.passwordUpdatedAt = transaction.now
    }

    /// Whether `password` is the user's: by the imported algorithm when the hash came in through
    /// `accounts:batchCreate` with one, else by the emulator's own format.
    static func matches(_ password: String, user: UserRecord) -> Bool {
        guard let stored = user.passwordHash else { return false }
        if let imported = user.importedPasswordHash {
            return imported.matches(password, passwordHash: stored, salt: user.salt)
        }
        guard let salt = user.salt else { return false }
        return stored == hash(password, salt: salt)
    }
}

/// Developer claims for ID tokens (reference §8.10).
enum CustomClaims {
    static let maximumLength = 1000
    static let reserved: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase",
        "at_hash", "c_hash",
    ]

    /// Checks the JSON text the Admin SDKs send as `customAttributes`.
    static func validate(serialized: String) throws(AuthError) {
        guard serialized.utf8.count <= maximumLength else { throw AuthError.invalid("CLAIMS_TOO_LARGE") }
        guard let value = try? JSONValue(parsing: serialized), case .object(let claims) = value else {
            throw AuthError.invalid("INVALID_CLAIMS")
        }
        try validate(claims)
    }

    static func validate(_ claims: JSONObject) throws(AuthError) {
        guard claims.compactString.utf8.count <= maximumLength else { throw AuthError.invalid("CLAIMS_TOO_LARGE") }
        if let forbidden = claims.keys.first(where: reserved.contains) {
            throw AuthError.invalid("FORBIDDEN_CLAIM : \(forbidden)")
        }
    }
}
