import JSON
import Testing

@testable import JOSE

@Suite struct CompactJWTTests {
    static let payload: JSONObject = ["iss": "https://securetoken.google.com/demo", "sub": "user-1", "iat": 1_700_000_000]

    static func segments(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func decodedJSON(_ segment: String) -> String {
        String(decoding: Base64URL.decode(segment) ?? [], as: UTF8.self)
    }

    @Test(arguments: [TestKeys.rsa, TestKeys.p256])
    func signedTokenParsesAndVerifies(key: SigningKey) throws {
        let token = try CompactJWT.sign(payload: Self.payload, key: key, keyID: "kid-1")
        let parts = Self.segments(token)
        #expect(parts.count == 3)
        #expect(Self.decodedJSON(parts[0]) == #"{"alg":"\#(key.algorithm.rawValue)","kid":"kid-1","typ":"JWT"}"#)
        #expect(Self.decodedJSON(parts[1]) == Self.payload.compactString)

        let jwt = try CompactJWT(parsing: token)
        #expect(jwt.algorithm == key.algorithm.rawValue)
        #expect(jwt.keyID == "kid-1")
        #expect(jwt.payload == Self.payload)
        #expect(jwt.signingInput == Array((parts[0] + "." + parts[1]).utf8))
        #expect(jwt.verify(with: key.publicKey))
    }

    @Test func extraHeaderIsAppendedAndMayOverrideTyp() throws {
        let token = try CompactJWT.sign(
            payload: Self.payload, key: TestKeys.p256, keyID: "k", extraHeader: ["typ": "at+jwt", "x5t": "abc"])
        #expect(Self.decodedJSON(Self.segments(token)[0]) == #"{"alg":"ES256","kid":"k","typ":"at+jwt","x5t":"abc"}"#)
        #expect(try CompactJWT(parsing: token).verify(with: TestKeys.p256.publicKey))
    }

    @Test func extraHeaderCannotChangeAlg() {
        #expect(throws: JOSEError.self) {
            try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k", extraHeader: ["alg": "none"])
        }
    }

    @Test func unsignedTokenHasTheExactNoneHeaderAndNeverVerifies() throws {
        let token = CompactJWT.unsigned(payload: Self.payload)
        #expect(token.hasSuffix("."))
        let parts = Self.segments(token)
        #expect(parts[0] == "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0")  // {"alg":"none","typ":"JWT"}
        #expect(parts[2].isEmpty)

        let jwt = try CompactJWT(parsing: token)
        #expect(jwt.algorithm == "none")
        #expect(jwt.signature.isEmpty)
        #expect(jwt.payload == Self.payload)
        #expect(!jwt.verify(with: TestKeys.rsa.publicKey))
        #expect(!jwt.verify(with: TestKeys.p256.publicKey))
    }

    @Test func signedTokenRelabelledAsNoneFails() throws {
        let token = try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k")
        let parts = Self.segments(token)
        let noneHeader = Base64URL.encode(Array(#"{"alg":"none","kid":"k","typ":"JWT"}"#.utf8))
        for signature in [parts[2], ""] {
            let forged = try CompactJWT(parsing: [noneHeader, parts[1], signature].joined(separator: "."))
            #expect(!forged.verify(with: TestKeys.p256.publicKey))
        }
    }

    @Test func tamperedPayloadFails() throws {
        let token = try CompactJWT.sign(payload: Self.payload, key: TestKeys.rsa, keyID: "k")
        var parts = Self.segments(token)
        var changed = Self.payload
        changed["sub"] = "admin"
        parts[1] = Base64URL.encode(changed.encoded())
        #expect(!(try CompactJWT(parsing: parts.joined(separator: "."))).verify(with: TestKeys.rsa.publicKey))
    }

    @Test(arguments: [TestKeys.rsa, TestKeys.p256])
    func tamperedSignatureFails(key: SigningKey) throws {
        let token = try CompactJWT.sign(payload: Self.payload, key: key, keyID: "k")
        var parts = Self.segments(token)
        var signature = Base64URL.decode(parts[2])!
        signature[signature.count / 2] ^= 0x40
        parts[2] = Base64URL.encode(signature)
        #expect(!(try CompactJWT(parsing: parts.joined(separator: "."))).verify(with: key.publicKey))
    }

    @Test func wrongKeyFails() throws {
        let esToken = try CompactJWT(parsing: try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k"))
        let rsToken = try CompactJWT(parsing: try CompactJWT.sign(payload: Self.payload, key: TestKeys.rsa, keyID: "k"))
        #expect(!esToken.verify(with: TestKeys.otherP256.publicKey))
        #expect(!rsToken.verify(with: TestKeys.otherRSA.publicKey))
    }

    @Test func algorithmMustBeTheKeysOwn() throws {
        let esToken = try CompactJWT(parsing: try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k"))
        let rsToken = try CompactJWT(parsing: try CompactJWT.sign(payload: Self.payload, key: TestKeys.rsa, keyID: "k"))
        #expect(!esToken.verify(with: TestKeys.rsa.publicKey))
        #expect(!rsToken.verify(with: TestKeys.p256.publicKey))

        // A valid ES256 signature under a header that claims another algorithm does not verify.
        for claimed in ["RS256", "HS256", "es256", "ES256 ", "none"] {
            var header = esToken.header
            header["alg"] = .string(claimed)
            let parts = Self.segments(try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k"))
            let relabelled = try CompactJWT(parsing: [Base64URL.encode(header.encoded()), parts[1], parts[2]].joined(separator: "."))
            #expect(!relabelled.verify(with: TestKeys.p256.publicKey), "alg \(claimed)")
        }
        // A missing or non-string alg never verifies.
        for header: JSONObject in [["typ": "JWT"], ["alg": 256]] {
            let jwt = try CompactJWT(parsing: Base64URL.encode(header.encoded()) + ".e30.")
            #expect(!jwt.verify(with: TestKeys.p256.publicKey))
        }
    }

    @Test(arguments: [
        ("", "token is not three segments"),
        ("e30", "token is not three segments"),
        ("e30.e30", "token is not three segments"),
        ("e30.e30.e30.e30", "token is not three segments"),
        ("e30.e30..", "token is not three segments"),
        (".e30.", "header is not JSON"),
        ("e30+.e30.", "header is not base64url"),
        ("eyJ9.e30.", "header is not JSON"),  // {"}
        ("bm90IGpzb24.e30.", "header is not JSON"),  // not json
        ("W10.e30.", "header is not a JSON object"),  // []
        ("ImEi.e30.", "header is not a JSON object"),  // "a"
        ("e30..", "payload is not JSON"),
        ("e30.e3=.", "payload is not base64url"),
        ("e30.bnVsbA.", "payload is not a JSON object"),  // null
        ("e30.e30.a", "signature is not base64url"),
        ("e30.e30.ab/c", "signature is not base64url"),
        ("e30.e30.a b", "signature is not base64url"),
    ])
    func malformedTokensAreRejectedWithAReason(token: String, reason: String) {
        let error = #expect(throws: JOSEError.self) { try CompactJWT(parsing: token) }
        #expect(error?.description == reason)
    }

    @Test func parsingAcceptsPaddedSegmentsAndEmptyObjects() throws {
        let jwt = try CompactJWT(parsing: "e30=.e30=.")
        #expect(jwt.header.isEmpty)
        #expect(jwt.payload.isEmpty)
        #expect(jwt.signature.isEmpty)
        #expect(jwt.algorithm == nil)
        #expect(jwt.keyID == nil)
        #expect(jwt.signingInput == Array("e30=.e30=".utf8))
    }

    @Test func signingInputIsTheReceivedTextNotAReEncoding() throws {
        // Same JSON, different bytes (extra space): the signature covers what was sent.
        let token = try CompactJWT.sign(payload: Self.payload, key: TestKeys.p256, keyID: "k")
        let parts = Self.segments(token)
        let spacedHeader = Base64URL.encode(Array(#"{"alg":"ES256", "kid":"k","typ":"JWT"}"#.utf8))
        let respaced = try CompactJWT(parsing: [spacedHeader, parts[1], parts[2]].joined(separator: "."))
        #expect(respaced.header == (try CompactJWT(parsing: token)).header)
        #expect(!respaced.verify(with: TestKeys.p256.publicKey))
    }
}
