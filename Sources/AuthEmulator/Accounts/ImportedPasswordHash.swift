import JOSE
import JSON

/// How an imported password hash was made: production's algorithm name and its parameters, as
/// `accounts:batchCreate` takes them at the top level of the request (reference §8.9; the Admin
/// SDKs' `UserImportHash`). Stored beside the user so that `signInWithPassword` can verify the
/// password the user had before the import. Binary values stay in the URL-safe base64 they came in.
struct ImportedPasswordHash: Sendable, Equatable {
    enum Algorithm: String, Sendable, CaseIterable {
        case hmacSHA512 = "HMAC_SHA512", hmacSHA256 = "HMAC_SHA256", hmacSHA1 = "HMAC_SHA1", hmacMD5 = "HMAC_MD5"
        case md5 = "MD5", sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"
        case pbkdfSHA1 = "PBKDF_SHA1", pbkdf2SHA256 = "PBKDF2_SHA256"
        case scrypt = "SCRYPT", standardScrypt = "STANDARD_SCRYPT", bcrypt = "BCRYPT"
    }

    var algorithm: Algorithm
    var signerKey: String?
    var saltSeparator: String?
    var rounds: Int?
    var memoryCost: Int?
    var cpuMemCost: Int?
    var parallelization: Int?
    var blockSize: Int?
    var dkLen: Int?

    /// The request's hash parameters; nil when it names no `hashAlgorithm` (the emulator's own
    /// `fakeHash:` format). Throws for an unknown algorithm or missing or out-of-range parameters.
    init?(request body: RequestBody) throws(AuthError) {
        guard let name = try body.nonEmptyString("hashAlgorithm") else { return nil }
        guard let algorithm = Algorithm(rawValue: name.uppercased()) else {
            throw AuthError.invalid("INVALID_HASH_ALGORITHM : \(name)")
        }
        self.algorithm = algorithm
        signerKey = try body.nonEmptyString("signerKey")
        saltSeparator = try body.nonEmptyString("saltSeparator")
        func integer(_ key: String) throws(AuthError) -> Int? { try body.int64(key).map { Int(clamping: $0) } }
        rounds = try integer("rounds")
        memoryCost = try integer("memoryCost")
        cpuMemCost = try integer("cpuMemCost")
        parallelization = try integer("parallelization")
        blockSize = try integer("blockSize")
        dkLen = try integer("dkLen")
        try validate()
    }

    /// Production's limits, so a bad parameter fails at import rather than at every sign-in.
    private func validate() throws(AuthError) {
        switch algorithm {
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            guard signerKey.flatMap(BinaryText.decode) != nil else { throw AuthError.invalid("MISSING_SIGNER_KEY") }
        case .md5, .sha1, .sha256, .sha512:
            guard (0...8192).contains(rounds ?? 1) else { throw AuthError.invalid("INVALID_ROUNDS") }
        case .pbkdfSHA1, .pbkdf2SHA256:
            guard (0...120_000).contains(rounds ?? 0) else { throw AuthError.invalid("INVALID_ROUNDS") }
        case .scrypt:
            guard signerKey.flatMap(BinaryText.decode) != nil else { throw AuthError.invalid("MISSING_SIGNER_KEY") }
            guard (1...8).contains(rounds ?? 0) else { throw AuthError.invalid("INVALID_ROUNDS") }
            guard (1...14).contains(memoryCost ?? 0) else { throw AuthError.invalid("INVALID_MEMORY_COST") }
            if let saltSeparator, BinaryText.decode(saltSeparator) == nil { throw AuthError.invalid("INVALID_SALT_SEPARATOR") }
        case .standardScrypt:
            let n = cpuMemCost ?? memoryCost ?? 0
            guard n > 1, n & (n - 1) == 0, n <= 1 << 20 else { throw AuthError.invalid("INVALID_MEMORY_COST") }
            guard (1...16).contains(parallelization ?? 0) else { throw AuthError.invalid("INVALID_PARALLELIZATION") }
            guard (1...32).contains(blockSize ?? 0) else { throw AuthError.invalid("INVALID_BLOCK_SIZE") }
            guard (1...1024).contains(dkLen ?? 0) else { throw AuthError.invalid("INVALID_DERIVED_KEY_LENGTH") }
            try ImportedHashCost.checkStandardScrypt(n: n, r: blockSize ?? 0, p: parallelization ?? 0)
        case .bcrypt:
            break
        }
    }

    /// The per-user part of the cost check: a bcrypt hash carries its own cost. Throws the entry's
    /// error when verifying `passwordHash` at sign-in would take too long.
    func checkCost(ofPasswordHash passwordHash: String) throws(AuthError) {
        guard algorithm == .bcrypt, let encoded = BinaryText.decode(passwordHash) else { return }
        try ImportedHashCost.checkBcrypt(String(decoding: encoded, as: UTF8.self))
    }

    /// As stored in the `password_hash_config` column and in our exports' per-user extension.
    var json: JSONObject {
        var object: JSONObject = ["hashAlgorithm": .string(algorithm.rawValue)]
        object.setIfPresent("signerKey", signerKey.map { .string($0) })
        object.setIfPresent("saltSeparator", saltSeparator.map { .string($0) })
        for (key, value) in [
            ("rounds", rounds), ("memoryCost", memoryCost), ("cpuMemCost", cpuMemCost),
            ("parallelization", parallelization), ("blockSize", blockSize), ("dkLen", dkLen),
        ] {
            object.setIfPresent(key, value.map { .int(Int64($0)) })
        }
        return object
    }

    init?(stored object: JSONObject) {
        guard let parsed = try? ImportedPasswordHash(request: RequestBody(object)) else { return nil }
        self = parsed
    }

    /// Whether `password` produces `passwordHash` (URL-safe base64, as imported) with `salt`.
    func matches(_ password: String, passwordHash: String, salt: String?) -> Bool {
        guard let expected = BinaryText.decode(passwordHash) else { return false }
        let saltBytes = salt.flatMap(BinaryText.decode) ?? []
        let passwordBytes = Array(password.utf8)
        if algorithm == .bcrypt {
            // A hash stored before the import checked costs must not stall a sign-in thread either.
            let encoded = String(decoding: expected, as: UTF8.self)
            guard (try? ImportedHashCost.checkBcrypt(encoded)) != nil else { return false }
            return BCrypt.verify(passwordBytes, encoded: String(decoding: expected, as: UTF8.self))
        }
        guard let computed = derive(passwordBytes, salt: saltBytes, length: expected.count) else { return false }
        return BCrypt.constantTimeEquals(computed, expected)
    }

    private func derive(_ password: [UInt8], salt: [UInt8], length: Int) -> [UInt8]? {
        let key = signerKey.flatMap(BinaryText.decode) ?? []
        switch algorithm {
        case .hmacSHA512: return HMAC.authenticationCode(.sha512, key: key, message: salt + password)
        case .hmacSHA256: return HMAC.authenticationCode(.sha256, key: key, message: salt + password)
        case .hmacSHA1: return HMAC.authenticationCode(.sha1, key: key, message: salt + password)
        case .hmacMD5: return HMAC.authenticationCode(.md5, key: key, message: salt + password)
        case .md5: return iterated(.md5, salt + password)
        case .sha1: return iterated(.sha1, salt + password)
        case .sha256: return iterated(.sha256, salt + password)
        case .sha512: return iterated(.sha512, salt + password)
        case .pbkdfSHA1:
            return KeyDerivation.pbkdf2(.sha1, password: password, salt: salt, iterations: rounds ?? 0, length: length)
        case .pbkdf2SHA256:
            return KeyDerivation.pbkdf2(.sha256, password: password, salt: salt, iterations: rounds ?? 0, length: length)
        case .scrypt:
            let separator = saltSeparator.flatMap(BinaryText.decode) ?? []
            guard let derived = KeyDerivation.scrypt(
                password: password, salt: salt + separator, n: 1 << UInt64(memoryCost ?? 0), r: UInt64(rounds ?? 0), p: 1,
                length: 32)
            else { return nil }
            return AESCounterMode.aes256(key: derived, iv: [UInt8](repeating: 0, count: 16), key)
        case .standardScrypt:
            return KeyDerivation.scrypt(
                password: password, salt: salt, n: UInt64(cpuMemCost ?? memoryCost ?? 0), r: UInt64(blockSize ?? 0),
                p: UInt64(parallelization ?? 0), length: dkLen ?? length)
        case .bcrypt: return nil
        }
    }

    /// `rounds` applications of the digest: the first over salt then password (production's default
    /// order), each later one over the previous digest. Zero rounds count as one.
    private func iterated(_ digest: MessageDigest.Algorithm, _ input: [UInt8]) -> [UInt8] {
        var output = MessageDigest.hash(digest, input)
        for _ in 1..<max(rounds ?? 1, 1) { output = MessageDigest.hash(digest, output) }
        return output
    }
}

/// The most work one imported hash may cost each time its user signs in. Production accepts hashes
/// that take seconds or hours to verify (bcrypt cost 31); the emulator refuses them at import, with
/// the limit named, instead of stalling a sign-in thread. Firebase's own scrypt (rounds ≤ 8, memory
/// cost ≤ 14), PBKDF (≤ 120 000 iterations) and digest rounds (≤ 8192) stay within these by their
/// own range checks.
enum ImportedHashCost {
    /// bcrypt's cost is log2 of its rounds: 12 is 4096 key expansions, the top of what apps commonly use.
    static let maximumBcryptCost = 12
    /// scrypt needs 128 · N · r bytes: 128 MiB (N = 2^17 with r = 8).
    static let maximumScryptMemory = 128 << 20
    /// scrypt's time grows with N · r · p: 2^21 (N = 2^17, r = 8, p = 2) is about a second on an idle core.
    static let maximumScryptWork = 1 << 21

    static func checkBcrypt(_ encoded: String) throws(AuthError) {
        guard let cost = BCrypt.cost(ofEncoded: encoded) else { return }
        guard cost <= maximumBcryptCost else {
            throw AuthError.invalid(
                "INVALID_PASSWORD_HASH : The bcrypt cost \(cost) is above the emulator's limit of \(maximumBcryptCost); re-hash with a lower cost for tests.")
        }
    }

    static func checkStandardScrypt(n: Int, r: Int, p: Int) throws(AuthError) {
        // n ≤ 2^20, r ≤ 32 and p ≤ 16 are checked first, so these products cannot overflow.
        let memory = 128 * n * r
        guard memory <= maximumScryptMemory else {
            throw AuthError.invalid(
                "INVALID_MEMORY_COST : STANDARD_SCRYPT with N = \(n) and r = \(r) needs \(memory >> 20) MiB (128 · N · r), above the emulator's limit of \(maximumScryptMemory >> 20) MiB.")
        }
        guard n * r * p <= maximumScryptWork else {
            throw AuthError.invalid(
                "INVALID_MEMORY_COST : STANDARD_SCRYPT with N · r · p = \(n * r * p) is above the emulator's limit of \(maximumScryptWork) (about a second per sign-in).")
        }
    }
}

/// Binary values in import requests: URL-safe base64 as the Admin SDKs send it; the standard
/// alphabet and padding are accepted too.
enum BinaryText {
    static func decode(_ text: String) -> [UInt8]? {
        let urlSafe = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return Base64URL.decode(urlSafe)
    }
}
