import JOSE
import JSON
import Testing

@testable import AuthEmulator

/// The ID token payload, the refresh token and the user object are written by hand for speed. The
/// Admin SDKs and the Apple SDK parse them, so these tests pin that every byte is what the
/// straightforward versions (copied below as they were, building `JSONObject`s) give, across
/// users with and without each field, custom claims (also ones named like reserved claims),
/// tenants, providers, second factors, and text that needs JSON escaping or is not ASCII.
@Suite struct AnswerEncodingTests {
    // MARK: The straightforward versions, as they were before the writers

    static func legacyPayload(
        for user: UserRecord, signInProvider: String, extraClaims: JSONObject?, secondFactor: JSONObject?, now: Instant,
        signInAttributes: JSONValue? = nil
    ) -> JSONObject {
        var claims = JSONObject()
        claims.setIfPresent("name", user.displayName.map { .string($0) })
        claims.setIfPresent("picture", user.photoUrl.map { .string($0) })
        if let custom = user.customAttributes.flatMap({ try? JSONValue(parsing: $0).objectValue }) {
            claims.merge(custom)
        }
        if let extraClaims { claims.merge(extraClaims) }
        claims.setIfPresent("email", user.email.map { .string($0) })
        claims.setIfPresent("email_verified", user.emailVerified.map { .bool($0) })
        claims.setIfPresent("phone_number", user.phoneNumber.map { .string($0) })
        if signInProvider == SignInProvider.anonymous { claims["provider_id"] = "anonymous" }
        let authTime = (user.lastLoginAt ?? user.lastRefreshAt ?? now).secondsSinceEpoch
        claims["auth_time"] = .int(authTime)
        claims["user_id"] = .string(user.localId)

        var identities = JSONObject()
        if let email = user.email { identities["email"] = [.string(email)] }
        for link in user.providerUserInfo where link.providerId != SignInProvider.password {
            identities[link.providerId] = [.string(link.rawId)]
        }
        var firebase: JSONObject = ["identities": .object(identities), "sign_in_provider": .string(signInProvider)]
        if let secondFactor {
            firebase.setIfPresent("sign_in_second_factor", secondFactor["provider"])
            firebase.setIfPresent("second_factor_identifier", secondFactor["identifier"])
        }
        firebase.setIfPresent("tenant", user.scope.tenantId.map { .string($0) })
        firebase.setIfPresent("sign_in_attributes", signInAttributes)
        claims["firebase"] = .object(firebase)

        claims["iat"] = .int(now.secondsSinceEpoch)
        claims["exp"] = .int(now.secondsSinceEpoch + 3600)
        claims["aud"] = .string(user.scope.projectId)
        claims["iss"] = .string("https://securetoken.google.com/\(user.scope.projectId)")
        claims["sub"] = .string(user.localId)
        return claims
    }

    static func legacyUserJSON(_ user: UserRecord) -> JSONObject {
        var object: JSONObject = ["localId": .string(user.localId)]
        object.setIfPresent("email", user.email.map { .string($0) })
        object.setIfPresent("emailVerified", user.emailVerified.map { .bool($0) })
        object.setIfPresent("displayName", user.displayName.map { .string($0) })
        object.setIfPresent("photoUrl", user.photoUrl.map { .string($0) })
        object.setIfPresent("screenName", user.screenName.map { .string($0) })
        object.setIfPresent("phoneNumber", user.phoneNumber.map { .string($0) })
        object.setIfPresent("passwordHash", user.passwordHash.map { .string($0) })
        object.setIfPresent("salt", user.salt.map { .string($0) })
        object.setIfPresent("passwordUpdatedAt", user.passwordUpdatedAt.map { .int($0.millisecondsSinceEpoch) })
        object.setIfPresent("validSince", user.validSinceSeconds.map { .string(String($0)) })
        object["createdAt"] = .string(String(user.createdAt.millisecondsSinceEpoch))
        object.setIfPresent("lastLoginAt", user.lastLoginAt.map { .string(String($0.millisecondsSinceEpoch)) })
        object.setIfPresent("lastRefreshAt", user.lastRefreshAt.map { .string(legacyRFC3339($0)) })
        object["providerUserInfo"] = .array(user.providerUserInfo.map { .object($0.json) })
        object.setIfPresent("customAttributes", user.customAttributes.map { .string($0) })
        if user.customAuth { object["customAuth"] = true }
        if user.disabled { object["disabled"] = true }
        if user.emailLinkSignin { object["emailLinkSignin"] = true }
        object.setIfPresent("initialEmail", user.initialEmail.map { .string($0) })
        if !user.mfaEnrollments.isEmpty || user.listsWithdrawnFactors {
            object["mfaInfo"] = .array(user.mfaEnrollments.map { .object($0.json) })
        }
        if !user.passkeys.isEmpty { object["passkeyInfo"] = .array(user.passkeys.map { .object($0.json) }) }
        object.setIfPresent("tenantId", user.scope.tenantId.map { .string($0) })
        return object
    }

    static func legacyRFC3339(_ instant: Instant) -> String {
        let milliseconds = instant.millisecondsSinceEpoch
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let millisecondOfDay = milliseconds - days * 86_400_000
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text: [UInt8] = []
        func append(_ value: Int64, width: Int) {
            let digits = Array(String(value).utf8)
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
            text.append(contentsOf: digits)
        }
        func append(_ separator: Unicode.Scalar, twoDigits value: Int64) {
            text.append(UInt8(ascii: separator))
            text.append(UInt8(ascii: "0") + UInt8(value / 10))
            text.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        append(year, width: 4)
        append("-", twoDigits: month)
        append("-", twoDigits: day)
        append("T", twoDigits: millisecondOfDay / 3_600_000)
        append(":", twoDigits: millisecondOfDay / 60_000 % 60)
        append(":", twoDigits: millisecondOfDay / 1000 % 60)
        append(".", twoDigits: millisecondOfDay % 1000 / 10)
        text.append(UInt8(ascii: "0") + UInt8(millisecondOfDay % 10))
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    static func legacyRefreshToken(_ record: RefreshTokenRecord, tokenId: String) -> String {
        var json: JSONObject = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": .string(record.localId),
            "provider": .string(record.signInProvider), "extraClaims": .object(record.extraClaims ?? [:]),
            "projectId": .string(record.scope.projectId),
        ]
        json.setIfPresent("secondFactor", record.secondFactor.map { .object($0) })
        json.setIfPresent("tenantId", record.scope.tenantId.map { .string($0) })
        json["tokenId"] = .string(tokenId)
        return Base64Encoding.standard.encode(json.encoded())
    }

    static func legacyUnsignedToken(_ payload: JSONObject) -> String {
        Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(payload.encoded()) + "."
    }

    // MARK: Inputs

    /// Text that needs every kind of escape, and text beyond ASCII.
    static let awkward = "Zoë \"Q\" \\ 🍕\n\t\r\u{01}\u{1F}/</script>é"

    static let now = Instant(millisecondsSinceEpoch: 1_700_000_123_456)

    /// Users from bare to full: every optional field absent and present, odd text in each.
    static var users: [UserRecord] {
        var result: [UserRecord] = []
        for scope in [UserScope(projectId: "demo-project"), UserScope(projectId: "p-\(awkward)", tenantId: "tenant-1")] {
            var bare = UserRecord(localId: "bareUser", scope: scope, createdAt: now)
            result.append(bare)
            bare.lastRefreshAt = Instant(millisecondsSinceEpoch: 1_600_000_000_999)
            result.append(bare)

            var full = UserRecord(localId: "u-\(awkward)", scope: scope, createdAt: Instant(millisecondsSinceEpoch: 1))
            full.email = "zoë+\"x\"@example.com"
            full.emailVerified = true
            full.displayName = awkward
            full.photoUrl = "https://example.com/p.png?a=1&b=\"2\""
            full.screenName = "screen\u{7}"
            full.phoneNumber = "+15555550100"
            full.passwordHash = "fakeHash:salt=s:password=\(awkward)"
            full.salt = "s"
            full.passwordUpdatedAt = Instant(millisecondsSinceEpoch: 1_650_000_000_001)
            full.validSinceSeconds = 1_650_000_000
            full.lastLoginAt = Instant(millisecondsSinceEpoch: 1_690_000_000_500)
            full.lastRefreshAt = Instant(millisecondsSinceEpoch: -86_400_001)
            full.customAttributes = #"{"role":"admin","level":3,"nested":{"a":[1,2.5,null,true]},"emoji":"🍕\n"}"#
            full.providers = [
                ProviderUserInfo(
                    providerId: "google.com", rawId: "g-\(awkward)", federatedId: "fed", email: "g@example.com",
                    displayName: "G", photoUrl: "https://g", screenName: "gs", phoneNumber: "+1"),
                ProviderUserInfo(providerId: "apple.com", rawId: "a1", email: "relay@privaterelay.appleid.com"),
                ProviderUserInfo(providerId: "saml.\(awkward)", rawId: "s1"),
            ]
            result.append(full)

            var anonymousLike = UserRecord(localId: "anon", scope: scope, createdAt: now)
            anonymousLike.emailVerified = false
            anonymousLike.lastLoginAt = now
            result.append(anonymousLike)

            var linkOnly = full
            linkOnly.passwordHash = nil
            linkOnly.email = nil
            linkOnly.phoneNumber = nil
            linkOnly.customAttributes = "not json"
            linkOnly.emailLinkSignin = true
            linkOnly.disabled = true
            linkOnly.customAuth = true
            linkOnly.initialEmail = "first@example.com"
            result.append(linkOnly)

            var emailLink = full
            emailLink.passwordHash = nil
            emailLink.emailLinkSignin = true
            emailLink.customAttributes = "[1,2]"
            emailLink.mfaEnrollments = [
                MFAEnrollment(mfaEnrollmentId: "m1", displayName: awkward, enrolledAt: now, factor: .phone("+15555550111")),
                MFAEnrollment(mfaEnrollmentId: "m2", displayName: nil, enrolledAt: now, factor: .totp(secret: [1, 2, 3])),
            ]
            emailLink.passkeys = [Passkey(credentialId: "c1", name: awkward)]
            result.append(emailLink)

            var withdrawn = bare
            withdrawn.listsWithdrawnFactors = true
            result.append(withdrawn)

            // Custom claims named like the claims the minter sets, and links whose identity keys repeat.
            var clashing = full
            clashing.customAttributes = #"{"email":"custom@x","name":"N","firebase":{"x":1},"iat":1,"zeta":"z"}"#
            result.append(clashing)
            clashing.email = nil
            clashing.displayName = nil
            result.append(clashing)
            var repeatedLinks = full
            repeatedLinks.providers.append(ProviderUserInfo(providerId: "email", rawId: "e1"))
            repeatedLinks.providers.append(ProviderUserInfo(providerId: "phone", rawId: "p1"))
            repeatedLinks.providers.append(ProviderUserInfo(providerId: "google.com", rawId: "g2"))
            repeatedLinks.providers.append(ProviderUserInfo(providerId: "password", rawId: "pw"))
            result.append(repeatedLinks)
            repeatedLinks.email = nil
            repeatedLinks.phoneNumber = nil
            result.append(repeatedLinks)
        }
        return result
    }

    static let extraClaimsCases: [JSONObject?] = [
        nil, [:], ["role": "editor", "premium": true], ["sub": "forged"], ["\(awkward)": .string(awkward)],
    ]

    static let secondFactors: [JSONObject?] = [
        nil, ["provider": "phone", "identifier": "+15555550111"], ["provider": "totp"], ["identifier": .int(7)],
    ]

    static let signInAttributesCases: [JSONValue?] = [nil, ["group": ["a", "b"], "n": 1.5]]

    // MARK: ID tokens

    @Test func idTokenPayloadIsTheStraightforwardOneByteForByte() throws {
        var compared = 0
        for user in Self.users {
            for provider in ["password", "anonymous", "google.com", "custom", Self.awkward] {
                for extraClaims in Self.extraClaimsCases {
                    for secondFactor in Self.secondFactors {
                        for signInAttributes in Self.signInAttributesCases {
                            let legacy = Self.legacyPayload(
                                for: user, signInProvider: provider, extraClaims: extraClaims,
                                secondFactor: secondFactor, now: Self.now, signInAttributes: signInAttributes)
                            let claims = IDTokenClaims(
                                user: user, signInProvider: provider, extraClaims: extraClaims,
                                secondFactor: secondFactor, now: Self.now, signInAttributes: signInAttributes)
                            let written = claims.encoded()
                            #expect(written == legacy.encoded(), "user \(user.localId), provider \(provider)")
                            #expect(IDTokenMinter.payload(claims).encoded() == legacy.encoded())
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 1000)
    }

    @Test func unsignedIDTokenIsTheStraightforwardOne() throws {
        let signer = try TestEmulator().emulator.environment.idTokenSigner
        for user in Self.users {
            let claims = IDTokenClaims(
                user: user, signInProvider: "password", extraClaims: ["k": "v"], secondFactor: nil, now: Self.now)
            let legacy = Self.legacyPayload(
                for: user, signInProvider: "password", extraClaims: ["k": "v"], secondFactor: nil, now: Self.now)
            #expect(try signer.encode(claims) == Self.legacyUnsignedToken(legacy))
            #expect(try signer.encode(legacy) == Self.legacyUnsignedToken(legacy))
            #expect(CompactJWT.unsigned(payload: legacy) == Self.legacyUnsignedToken(legacy))
        }
    }

    @Test func signedIDTokenCarriesTheStraightforwardPayloadAndVerifies() throws {
        let signer = try TestEmulator(idTokenMode: .signed).emulator.environment.idTokenSigner
        for user in Self.users {
            let claims = IDTokenClaims(
                user: user, signInProvider: "google.com", extraClaims: nil, secondFactor: nil, now: Self.now)
            let legacy = Self.legacyPayload(
                for: user, signInProvider: "google.com", extraClaims: nil, secondFactor: nil, now: Self.now)
            let token = try signer.encode(claims)
            let segments = token.split(separator: ".", omittingEmptySubsequences: false)
            #expect(segments.count == 3)
            #expect(Base64URL.decode(segments[1]) == legacy.encoded())
            let jwt = try CompactJWT(parsing: token)
            #expect(jwt.header == ["alg": "RS256", "kid": jwt.header["kid"]!, "typ": "JWT"])
            #expect(signer.verifies(jwt) == true)
            // RS256 (PKCS #1 v1.5) is deterministic: the JSONObject route gives the same token.
            #expect(try signer.encode(legacy) == token)
        }
    }

    @Test func tokenAnswerIsWrittenAsTheRouterWritesItsObject() throws {
        let signer = try TestEmulator().emulator.environment.idTokenSigner
        let fieldCases: [JSONObject] = [
            [:],
            ["kind": "identitytoolkit#SignupNewUserResponse", "localId": "u1"],
            [
                "kind": "identitytoolkit#VerifyPasswordResponse", "registered": true, "localId": .string(Self.awkward),
                "email": "a@b.c", "displayName": .string(Self.awkward), "photoUrl": "https://p",
            ],
            ["nested": ["a": [1, 2.5, nil], "b": [:], "c": []], "n": -3],
            // A field named like a token key keeps its place in the tree: the writer defers to it.
            ["idToken": "old", "x": 1], ["expiresIn": 1, "refreshToken": "r"],
        ]
        var user = UserRecord(localId: "u-\(Self.awkward)", scope: UserScope(projectId: "demo-project"), createdAt: Self.now)
        user.email = "a@b.c"
        let claims = IDTokenClaims(user: user, signInProvider: "password", extraClaims: nil, secondFactor: nil, now: Self.now)
        for fields in fieldCases {
            for tokens in [nil, GrantedTokens(claims: claims, refreshToken: "refresh-\(Self.awkward)")] {
                for includesExpiry in [true, false] {
                    let answer = TokenAnswer(fields: fields, tokens: tokens, includesExpiry: includesExpiry)
                    let tree = JSONValue.object(try answer.encoded(with: signer)).prettyEncoded()
                    #expect(try answer.written(with: signer) == tree, "\(fields)")
                }
            }
        }
    }

    /// One token spelled out, so a change that moved both versions alike would still show.
    @Test func aPasswordSignInTokenReadsExactlySo() throws {
        var user = UserRecord(localId: "abc123", scope: UserScope(projectId: "demo-project"), createdAt: Self.now)
        user.email = "ann@example.com"
        user.emailVerified = false
        user.displayName = "Ann \"A\""
        user.lastLoginAt = Self.now
        user.customAttributes = #"{"role":"admin"}"#
        user.providers = [ProviderUserInfo(providerId: "google.com", rawId: "g-1")]
        let claims = IDTokenClaims(user: user, signInProvider: "password", extraClaims: nil, secondFactor: nil, now: Self.now)
        let payload = String(decoding: claims.encoded(), as: UTF8.self)
        #expect(
            payload
                == #"{"name":"Ann \"A\"","role":"admin","email":"ann@example.com","email_verified":false,"auth_time":1700000123,"#
                + #""user_id":"abc123","firebase":{"identities":{"email":["ann@example.com"],"google.com":["g-1"]},"#
                + #""sign_in_provider":"password"},"iat":1700000123,"exp":1700003723,"aud":"demo-project","#
                + #""iss":"https://securetoken.google.com/demo-project","sub":"abc123"}"#)
        let token = CompactJWT.unsigned(payloadJSON: claims.encoded())
        #expect(token.hasPrefix("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0."))
        #expect(token.hasSuffix("."))
        #expect(try CompactJWT(parsing: token).payload == (try JSONValue(parsing: payload).objectValue))
    }

    // MARK: Users

    @Test func userObjectIsTheStraightforwardOneByteForByte() {
        for user in Self.users {
            let legacy = Self.legacyUserJSON(user)
            #expect(user.json.encoded() == legacy.encoded(), "user \(user.localId)")
            #expect(JSONValue.object(user.json).prettyEncoded() == JSONValue.object(legacy).prettyEncoded())
            // Written member by member, compact and indented.
            for indent in [0, 2] {
                var writer = JSONStreamWriter(indent: indent)
                user.write(to: &writer)
                let tree = JSONValue.object(legacy)
                #expect(writer.bytes == (indent == 0 ? tree.encoded() : tree.prettyEncoded()), "user \(user.localId)")
            }
        }
    }

    @Test func lookupAnswerIsTheStraightforwardOneByteForByte() {
        func legacyAnswer(_ users: [UserRecord]) -> [UInt8] {
            var response: JSONObject = ["kind": "identitytoolkit#GetAccountInfoResponse"]
            if !users.isEmpty { response["users"] = .array(users.map { .object(Self.legacyUserJSON($0)) }) }
            return JSONValue.object(response).prettyEncoded()
        }
        let users = Self.users
        for user in users {
            #expect(Lookup.answer([user]) == legacyAnswer([user]), "user \(user.localId)")
        }
        #expect(Lookup.answer([]) == legacyAnswer([]))
        #expect(Lookup.answer(users) == legacyAnswer(users))
        #expect(Lookup.answer(users) == JSONValue.object(Lookup.answerObject(users)).prettyEncoded())
    }

    /// One answer spelled out, so a change that moved both versions alike would still show.
    @Test func aLookupAnswerReadsExactlySo() {
        var user = UserRecord(localId: "abc", scope: UserScope(projectId: "demo-project"), createdAt: Self.now)
        user.email = "ann@example.com"
        user.emailVerified = false
        user.passwordHash = "fakeHash:salt=s:password=p"
        user.salt = "s"
        user.validSinceSeconds = 1_700_000_123
        user.lastLoginAt = Self.now
        user.lastRefreshAt = Self.now
        let expected = """
            {
              "kind": "identitytoolkit#GetAccountInfoResponse",
              "users": [
                {
                  "localId": "abc",
                  "email": "ann@example.com",
                  "emailVerified": false,
                  "passwordHash": "fakeHash:salt=s:password=p",
                  "salt": "s",
                  "validSince": "1700000123",
                  "createdAt": "1700000123456",
                  "lastLoginAt": "1700000123456",
                  "lastRefreshAt": "2023-11-14T22:15:23.456Z",
                  "providerUserInfo": [
                    {
                      "providerId": "password",
                      "rawId": "ann@example.com",
                      "federatedId": "ann@example.com",
                      "email": "ann@example.com"
                    }
                  ]
                }
              ]
            }
            """
        #expect(String(decoding: Lookup.answer([user]), as: UTF8.self) == expected)
    }

    @Test func timestampsAreWrittenAsBefore() {
        // Years 0 to 9999 take the fast path; beyond them (either way) the padded decimal text.
        var instants: [Int64] = [
            0, -1, 1, 999, 1_000, 86_399_999, 86_400_000, 951_782_400_123, 4_102_444_799_999,
            -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000,
            -62_198_755_200_000, -100_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        ]
        var milliseconds: Int64 = -70_000_000_000_000
        while milliseconds < 260_000_000_000_000 {
            instants.append(milliseconds)
            milliseconds += 777_777_777_777
        }
        for value in instants {
            let instant = Instant(millisecondsSinceEpoch: value)
            #expect(instant.rfc3339 == Self.legacyRFC3339(instant), "\(value)")
        }
    }

    // MARK: Refresh tokens

    @Test func refreshTokenIsTheStraightforwardOneByteForByte() {
        for scope in [UserScope(projectId: "demo-project"), UserScope(projectId: Self.awkward, tenantId: "t-\(Self.awkward)")] {
            for extraClaims in Self.extraClaimsCases {
                for secondFactor in Self.secondFactors {
                    for provider in ["password", Self.awkward] {
                        let record = RefreshTokenRecord(
                            token: "", scope: scope, localId: "u-\(Self.awkward)", signInProvider: provider,
                            extraClaims: extraClaims, secondFactor: secondFactor, issuedAt: Self.now)
                        for tokenId in ["", "tok3n_-", Self.awkward] {
                            let written = RefreshTokenFormat.encode(record, tokenId: tokenId)
                            #expect(written == Self.legacyRefreshToken(record, tokenId: tokenId))
                            #expect(
                                written
                                    == Base64Encoding.standard.encode(
                                        RefreshTokenFormat.jsonObject(record, tokenId: tokenId).encoded()))
                        }
                    }
                }
            }
        }
    }

    @Test func aRefreshTokenReadsExactlySo() {
        let record = RefreshTokenRecord(
            token: "", scope: UserScope(projectId: "demo-project", tenantId: "t1"), localId: "abc", signInProvider: "password",
            extraClaims: ["role": "admin"], secondFactor: nil, issuedAt: Self.now)
        let token = RefreshTokenFormat.encode(record, tokenId: "xyz")
        let json = #"{"_AuthEmulatorRefreshToken":"DO NOT MODIFY","localId":"abc","provider":"password","#
            + #""extraClaims":{"role":"admin"},"projectId":"demo-project","tenantId":"t1","tokenId":"xyz"}"#
        #expect(token == Base64Encoding.standard.encode(Array(json.utf8)))
    }
}
