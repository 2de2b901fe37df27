import JOSE
import JSON
import Testing

/// `accounts:batchCreate` (reference §8.9): per-entry errors, whole-request duplicate checks, and
/// imported password hashes verified at sign-in.
@Suite struct BatchCreateTests {
    func batchCreate(_ emulator: TestEmulator, _ body: JSONObject, tenant: String? = nil) throws -> TestEmulator.Reply {
        try emulator.admin("accounts:batchCreate", .object(body), tenant: tenant)
    }

    func signIn(_ emulator: TestEmulator, _ email: String, _ password: String, tenant: String? = nil) throws -> TestEmulator.Reply {
        var body: JSONObject = ["email": .string(email), "password": .string(password)]
        if let tenant { body["tenantId"] = .string(tenant) }
        return try emulator.client("signInWithPassword", .object(body))
    }

    func lookup(_ emulator: TestEmulator, _ localId: String) throws -> JSONValue? {
        try emulator.admin("accounts:lookup", ["localId": [.string(localId)]])["users"]?.arrayValue?.first
    }

    func messages(_ reply: TestEmulator.Reply) -> [String] {
        reply["error"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
    }

    @Test func writesGoodEntriesAndReportsBadOnes() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "taken", "email": "taken@example.com"])
        let reply = try batchCreate(emulator, [
            "users": [
                ["localId": "ok-1", "email": "One@Example.com", "emailVerified": true, "displayName": "One",
                 "customAttributes": "{\"role\":\"editor\"}", "createdAt": 1_600_000_000_000, "lastLoginAt": "1600000100000",
                 "disabled": true],
                ["email": "no-id@example.com"],
                ["localId": "bad-email", "email": "not-an-email"],
                ["localId": "bad-phone", "phoneNumber": "5555"],
                ["localId": "bad-claims", "customAttributes": "[1]"],
                ["localId": "reserved", "customAttributes": "{\"sub\":\"x\"}"],
                ["localId": "big", "customAttributes": .string("{\"a\":\"" + String(repeating: "x", count: 1000) + "\"}")],
                ["localId": "no-raw-id", "providerUserInfo": [["providerId": "google.com"]]],
                ["localId": "fed-id", "providerUserInfo": [["federatedId": "https://accounts.google.com/1"]]],
                ["localId": "dup-email", "email": "taken@example.com"],
                ["localId": "taken"],
                ["localId": "ok-2", "phoneNumber": "+15555550100"],
            ],
        ])
        #expect(reply.status == 200)
        #expect(reply["kind"] == "identitytoolkit#UploadAccountResponse")
        #expect(reply["error"]?.arrayValue?.compactMap { $0["index"]?.int64Value } == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(messages(reply) == [
            "localId is missing", "email is invalid", "phone number format is invalid", "Invalid custom claims provided.",
            "Custom claims provided include a reserved claim.", "Custom claims provided are too large.",
            "federatedId or (providerId & rawId) is required",
            "((Parsing federatedId is not implemented in Auth Emulator; please specify providerId AND rawId as a workaround.))",
            "((Auth Emulator does not support importing duplicate email: taken@example.com))",
            "localId belongs to an existing account - can not overwrite.",
        ])
        let one = try #require(try lookup(emulator, "ok-1"))
        #expect(one["email"] == "one@example.com")
        #expect(one["emailVerified"] == true)
        #expect(one["disabled"] == true)
        #expect(one["customAttributes"] == "{\"role\":\"editor\"}")
        #expect(one["createdAt"] == "1600000000000")
        #expect(one["lastLoginAt"] == "1600000100000")
        #expect(one["validSince"] == .string(String(TestEmulator.start.secondsSinceEpoch)))
        #expect(try lookup(emulator, "ok-2")?["phoneNumber"] == "+15555550100")
        #expect(try lookup(emulator, "bad-email") == nil)
        #expect(try lookup(emulator, "taken")?["email"] == "taken@example.com")
    }

    @Test func wholeRequestChecks() throws {
        let emulator = try TestEmulator()
        #expect(try batchCreate(emulator, ["users": []]).errorMessage == "MISSING_USER_ACCOUNT")
        #expect(try batchCreate(emulator, [:]).errorMessage == "MISSING_USER_ACCOUNT")
        let duplicateIds = try batchCreate(emulator, ["users": [["localId": "a"], ["localId": "a"]]])
        #expect(duplicateIds.errorMessage == "DUPLICATE_LOCAL_ID : a")
        let duplicateEmails = try batchCreate(emulator, [
            "sanityCheck": true, "users": [["localId": "a", "email": "x@example.com"], ["localId": "b", "email": "X@example.com"]],
        ])
        #expect(duplicateEmails.errorMessage == "DUPLICATE_EMAIL : X@example.com")
        let duplicateRawIds = try batchCreate(emulator, [
            "sanityCheck": true,
            "users": [
                ["localId": "a", "providerUserInfo": [["providerId": "google.com", "rawId": "g1"]]],
                ["localId": "b", "providerUserInfo": [["providerId": "google.com", "rawId": "g1"]]],
            ],
        ])
        #expect(duplicateRawIds.errorMessage == "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(g1)")
        #expect(try batchCreate(emulator, ["hashAlgorithm": "ROT13", "users": [["localId": "a"]]]).errorMessage
            == "INVALID_HASH_ALGORITHM : ROT13")
        #expect(try batchCreate(emulator, ["hashAlgorithm": "HMAC_SHA256", "users": [["localId": "a"]]]).errorMessage
            == "MISSING_SIGNER_KEY")
        // Nothing was written by any refused request.
        #expect(try lookup(emulator, "a") == nil)
        // The project path needs the owner.
        let withKey = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchCreate?key=k",
            json: ["users": [["localId": "a"]]])
        #expect(withKey.status == 400)
        #expect(try lookup(emulator, "a") == nil)
    }

    @Test func duplicatesWithinOneBatchAndOverwrite() throws {
        let emulator = try TestEmulator()
        let sameEmail = try batchCreate(emulator, [
            "users": [["localId": "a", "email": "same@example.com"], ["localId": "b", "email": "same@example.com"]],
        ])
        #expect(messages(sameEmail) == ["((Auth Emulator does not support importing duplicate email: same@example.com))"])
        let sameRawId = try batchCreate(emulator, [
            "users": [["localId": "c", "providerUserInfo": [["providerId": "apple.com", "rawId": "r1", "email": "C@Example.com"]]]],
        ])
        #expect(messages(sameRawId) == [])
        let otherRawId = try batchCreate(emulator, [
            "sanityCheck": true, "users": [["localId": "d", "providerUserInfo": [["providerId": "apple.com", "rawId": "r1"]]]],
        ])
        #expect(messages(otherRawId) == ["raw id exists in other account in database"])
        let overwrite = try batchCreate(emulator, [
            "allowOverwrite": true, "users": [["localId": "a", "displayName": "First"], ["localId": "a", "displayName": "Second"]],
        ])
        #expect(messages(overwrite) == [])
        let a = try #require(try lookup(emulator, "a"))
        #expect(a["displayName"] == "Second")
        #expect(a["email"] == nil)
        let c = try #require(try lookup(emulator, "c"))
        #expect(c["providerUserInfo"]?.arrayValue?.first?["email"] == "c@example.com")
        #expect(c["providerUserInfo"]?.arrayValue?.first?["federatedId"] == "r1")
    }

    @Test func secondFactorsAndTenants() throws {
        let emulator = try TestEmulator()
        let reply = try batchCreate(emulator, [
            "users": [
                ["localId": "m1", "email": "m1@example.com", "emailVerified": true,
                 "mfaInfo": [["mfaEnrollmentId": "e1", "phoneInfo": "+15555550101", "displayName": "phone"]]],
                ["localId": "m2", "mfaInfo": [["phoneInfo": "+15555550102"]]],
                ["localId": "m3", "email": "m3@example.com", "mfaInfo": [["phoneInfo": "+15555550103"]]],
                ["localId": "m4", "email": "m4@example.com", "emailVerified": true, "mfaInfo": [["totpInfo": [:]]]],
                ["localId": "m5", "email": "m5@example.com", "emailVerified": true, "mfaInfo": [["phoneInfo": "555"]]],
                ["localId": "m6", "email": "m6@example.com", "emailVerified": true, "mfaInfo": [["mfaEnrollmentId": "e1", "phoneInfo": "+15555550106"]]],
                ["localId": "t1", "tenantId": "other"],
            ],
        ])
        #expect(messages(reply) == [
            "Second factor account requires email to be presented.", "Second factor account requires email to be verified.",
            "Second factor not supported.", "Phone number format is invalid", "Enrollment id already exists.",
            "Tenant id in userInfo does not match the tenant id in request.",
        ])
        let enrollment = try #require(try lookup(emulator, "m1")?["mfaInfo"]?.arrayValue?.first)
        #expect(enrollment["mfaEnrollmentId"] == "e1")
        #expect(enrollment["unobfuscatedPhoneInfo"] == "+15555550101")

        let tenant = try batchCreate(emulator, [
            "users": [["localId": "t1", "tenantId": "tenant-a", "email": "t@example.com", "rawPassword": "tenant-pass"]],
        ], tenant: "tenant-a")
        #expect(messages(tenant) == [])
        #expect(try signIn(emulator, "t@example.com", "tenant-pass", tenant: "tenant-a")["localId"] == "t1")
        #expect(try signIn(emulator, "t@example.com", "tenant-pass").errorMessage == "EMAIL_NOT_FOUND")
    }

    /// One user per algorithm, with hashes computed here from the same primitives' published vectors.
    @Test func importedHashesVerifyAtSignIn() throws {
        let emulator = try TestEmulator()
        let password = Array("correct horse".utf8)
        let salt = Array("NaCl-salt".utf8)
        let key = Array("signer-key".utf8)
        let encode = { (bytes: [UInt8]) in Base64URL.encode(bytes) + String(repeating: "=", count: (3 - bytes.count % 3) % 3) }
        let cases: [(JSONObject, [UInt8])] = [
            (["hashAlgorithm": "HMAC_SHA512", "signerKey": .string(encode(key))], HMAC.authenticationCode(.sha512, key: key, message: salt + password)),
            (["hashAlgorithm": "HMAC_SHA256", "signerKey": .string(encode(key))], HMAC.authenticationCode(.sha256, key: key, message: salt + password)),
            (["hashAlgorithm": "HMAC_SHA1", "signerKey": .string(encode(key))], HMAC.authenticationCode(.sha1, key: key, message: salt + password)),
            (["hashAlgorithm": "HMAC_MD5", "signerKey": .string(encode(key))], HMAC.authenticationCode(.md5, key: key, message: salt + password)),
            (["hashAlgorithm": "MD5", "rounds": 0], MessageDigest.hash(.md5, salt + password)),
            (["hashAlgorithm": "SHA1", "rounds": 1], MessageDigest.hash(.sha1, salt + password)),
            (["hashAlgorithm": "SHA256", "rounds": 2], MessageDigest.hash(.sha256, MessageDigest.hash(.sha256, salt + password))),
            (["hashAlgorithm": "SHA512", "rounds": 1], MessageDigest.hash(.sha512, salt + password)),
            (["hashAlgorithm": "PBKDF_SHA1", "rounds": 1000], KeyDerivation.pbkdf2(.sha1, password: password, salt: salt, iterations: 1000, length: 20)!),
            (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 1000], KeyDerivation.pbkdf2(.sha256, password: password, salt: salt, iterations: 1000, length: 32)!),
            (["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1024, "blockSize": 8, "parallelization": 1, "dkLen": 32],
             KeyDerivation.scrypt(password: password, salt: salt, n: 1024, r: 8, p: 1, length: 32)!),
            (["hashAlgorithm": "BCRYPT"], Array(BCrypt.hash(password, salt: Array(salt.prefix(8) + salt.prefix(8)), cost: 4).utf8)),
        ]
        for (index, (parameters, hash)) in cases.enumerated() {
            var body = parameters
            body["users"] = [["localId": .string("u\(index)"), "email": .string("u\(index)@example.com"),
                              "passwordHash": .string(encode(hash)), "salt": .string(encode(salt))]]
            let reply = try batchCreate(emulator, body)
            #expect(messages(reply) == [], "\(parameters)")
            #expect(try signIn(emulator, "u\(index)@example.com", "correct horse")["localId"] == .string("u\(index)"), "\(parameters)")
            #expect(try signIn(emulator, "u\(index)@example.com", "wrong horse").errorMessage == "INVALID_PASSWORD", "\(parameters)")
        }
        // The stored hash and salt come back as they were sent.
        #expect(try lookup(emulator, "u0")?["salt"] == .string(encode(salt)))
    }

    /// github.com/firebase/scrypt's README example, imported as the Admin SDKs send it.
    @Test func firebaseScryptReadmeExampleSignsIn() throws {
        let emulator = try TestEmulator()
        let reply = try batchCreate(emulator, [
            "hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14, "saltSeparator": "Bw==",
            "signerKey": "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
            "users": [["localId": "s1", "email": "s1@example.com", "salt": "42xEC+ixf3L2lw==",
                       "passwordHash": "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="]],
        ])
        #expect(messages(reply) == [])
        #expect(try signIn(emulator, "s1@example.com", "user1password")["localId"] == "s1")
        #expect(try signIn(emulator, "s1@example.com", "user2password").errorMessage == "INVALID_PASSWORD")
        // A password changed later becomes the emulator's own fake hash.
        let idToken = try signIn(emulator, "s1@example.com", "user1password")["idToken"]?.stringValue
        _ = try emulator.client("update", ["idToken": .string(idToken ?? ""), "password": "new-password"])
        let changed = try #require(try lookup(emulator, "s1"))
        let newSalt = changed["salt"]?.stringValue ?? ""
        #expect(changed["passwordHash"]?.stringValue == "fakeHash:salt=\(newSalt):password=new-password")
        #expect(try signIn(emulator, "s1@example.com", "new-password")["localId"] == "s1")
        #expect(try signIn(emulator, "s1@example.com", "user1password").errorMessage == "INVALID_PASSWORD")
    }

    @Test func fakeHashesAndRawPasswordsImportAsTheEmulatorsOwn() throws {
        let emulator = try TestEmulator()
        let reply = try batchCreate(emulator, [
            "users": [
                ["localId": "f1", "email": "f1@example.com", "passwordHash": "fakeHash:salt=fakeSaltX:password=pass-one", "salt": "fakeSaltX"],
                ["localId": "f2", "email": "f2@example.com", "rawPassword": "pass-two"],
            ],
        ])
        #expect(messages(reply) == [])
        #expect(try signIn(emulator, "f1@example.com", "pass-one")["localId"] == "f1")
        #expect(try signIn(emulator, "f2@example.com", "pass-two")["localId"] == "f2")
        #expect(try signIn(emulator, "f2@example.com", "pass-one").errorMessage == "INVALID_PASSWORD")
    }

    @Test func legacyUploadAccountReachesBatchCreate() throws {
        let emulator = try TestEmulator()
        let reply = try emulator.send(
            "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount",
            json: ["targetProjectId": .string(TestEmulator.project), "users": [["localId": "legacy"]]],
            headers: [("Authorization", "Bearer owner")])
        #expect(reply.status == 200)
        #expect(try lookup(emulator, "legacy") != nil)
    }
}
