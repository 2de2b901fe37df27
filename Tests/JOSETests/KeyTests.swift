import JSON
import Testing

@testable import JOSE

@Suite struct KeyGenerationAndPEMTests {
    static let message = Array("payload to sign".utf8)

    @Test func generatedKeysHaveTheirAlgorithm() {
        #expect(TestKeys.rsa.algorithm == .rs256)
        #expect(TestKeys.rsa.publicKey.algorithm == .rs256)
        #expect(TestKeys.p256.algorithm == .es256)
        #expect(TestKeys.p256.publicKey.algorithm == .es256)
    }

    @Test func tooSmallRSAIsRefused() {
        #expect(throws: JOSEError.self) { try SigningKey.generateRSA(bits: 1024) }
    }

    @Test(arguments: [TestKeys.rsa, TestKeys.p256])
    func privatePEMRoundTripsToTheSameKey(key: SigningKey) throws {
        let pem = try key.privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try SigningKey(privateKeyPEM: pem)
        #expect(reloaded.algorithm == key.algorithm)
        #expect(reloaded.publicKey.jwk(keyID: "k") == key.publicKey.jwk(keyID: "k"))
        #expect(key.publicKey.verify(signature: try reloaded.sign(Self.message), over: Self.message, algorithm: key.algorithm))
    }

    @Test(arguments: [TestKeys.rsa, TestKeys.p256])
    func publicPEMRoundTrips(key: SigningKey) throws {
        let pem = try key.publicKey.publicKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let reloaded = try VerificationKey(publicKeyPEM: pem)
        #expect(try reloaded.publicKeyPEM() == pem)
        #expect(reloaded.verify(signature: try key.sign(Self.message), over: Self.message, algorithm: key.algorithm))
    }

    @Test func verificationKeysCarryNoPrivateMaterial() throws {
        // The public key of a signing key is a separate, public-only OpenSSL key.
        let pem = try TestKeys.p256.publicKey.publicKeyPEM()
        #expect(throws: JOSEError.self) { try SigningKey(privateKeyPEM: pem) }
    }

    @Test(arguments: [
        "", "not a key",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    ])
    func garbagePEMIsRejected(pem: String) {
        #expect(throws: JOSEError.self) { try SigningKey(privateKeyPEM: pem) }
        #expect(throws: JOSEError.self) { try VerificationKey(publicKeyPEM: pem) }
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func wrongPEMKindIsRejectedWithoutEchoingTheKey() throws {
        let privatePEM = try TestKeys.p256.privateKeyPEM()
        let error = try #require(throws: JOSEError.self) { try VerificationKey(publicKeyPEM: privatePEM) }
        let body = privatePEM.split(separator: "\n")[1]
        #expect(!error.description.contains(body))
        #expect(error.description.hasPrefix("not a PEM public key"))
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func keysWorkFromManyTasksAtOnce() async throws {
        let message = Self.message
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let key = index.isMultiple(of: 2) ? TestKeys.p256 : TestKeys.rsa
                    guard let signature = try? key.sign(message) else { return false }
                    return key.publicKey.verify(signature: signature, over: message, algorithm: key.algorithm)
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }
}

@Suite struct JWKTests {
    static let message = Array("jwk round trip".utf8)

    @Test func rsaJWKHasTheAgreedMembersInOrder() {
        let jwk = TestKeys.rsa.publicKey.jwk(keyID: "key-1")
        #expect(jwk.keys == ["kty", "kid", "use", "alg", "n", "e"])
        #expect(jwk["kty"] == "RSA")
        #expect(jwk["kid"] == "key-1")
        #expect(jwk["use"] == "sig")
        #expect(jwk["alg"] == "RS256")
        #expect(jwk["e"] == "AQAB")
    }

    @Test func ecJWKHasTheAgreedMembersInOrder() {
        let jwk = TestKeys.p256.publicKey.jwk(keyID: "key-2")
        #expect(jwk.keys == ["kty", "kid", "use", "alg", "crv", "x", "y"])
        #expect(jwk["kty"] == "EC")
        #expect(jwk["alg"] == "ES256")
        #expect(jwk["crv"] == "P-256")
        #expect(jwk["x"]?.stringValue?.count == 43)  // 32 bytes, unpadded
        #expect(jwk["y"]?.stringValue?.count == 43)
    }

    @Test(arguments: [TestKeys.rsa, TestKeys.p256])
    func exportedJWKImportsAndVerifies(key: SigningKey) throws {
        let jwk = key.publicKey.jwk(keyID: "round-trip")
        let imported = try VerificationKey(jwk: jwk)
        #expect(OpenSSLErrorQueue.isEmpty)
        #expect(imported.algorithm == key.algorithm)
        #expect(imported.jwk(keyID: "round-trip") == jwk)
        #expect(try imported.publicKeyPEM() == key.publicKey.publicKeyPEM())
        let signature = try key.sign(Self.message)
        #expect(imported.verify(signature: signature, over: Self.message, algorithm: key.algorithm))
    }

    /// Coordinates are fixed-width: a key whose x or y starts with a zero byte must still export
    /// 32 bytes (about 1 P-256 key in 128 has one; EC key generation takes well under a millisecond).
    @Test func ecCoordinatesKeepTheirLeadingZeros() throws {
        for _ in 0..<5_000 {
            let key = try SigningKey.generateP256()
            let jwk = key.publicKey.jwk(keyID: "k")
            let x = try #require(Base64URL.decode(jwk["x"]?.stringValue ?? ""))
            let y = try #require(Base64URL.decode(jwk["y"]?.stringValue ?? ""))
            guard x[0] == 0 || y[0] == 0 else { continue }
            #expect(x.count == 32 && y.count == 32)
            let imported = try VerificationKey(jwk: jwk)
            let signature = try key.sign(Self.message)
            #expect(imported.verify(signature: signature, over: Self.message, algorithm: .es256))
            return
        }
        Issue.record("no P-256 key with a leading zero coordinate in 5000 tries")
    }

    @Test func rsaModulusWithALeadingZeroByteIsAccepted() throws {
        var jwk = RFC7515.A2.publicJWK
        jwk["n"] = .string(Base64URL.encode([0] + Base64URL.decode(RFC7515.A2.n)!))
        let key = try VerificationKey(jwk: jwk)
        // ...and is exported minimally again.
        #expect(key.jwk(keyID: "k")["n"]?.stringValue == RFC7515.A2.n)
    }

    static func changed(_ jwk: JSONObject, _ name: String, _ value: JSONValue?) -> JSONObject {
        var copy = jwk
        copy[name] = value
        return copy
    }

    static let ec = RFC7515.A3.publicJWK
    static let rsa = RFC7515.A2.publicJWK
    static let shortCoordinate = JSONValue.string(Base64URL.encode([UInt8](repeating: 7, count: 31)))
    static let offCurveY = JSONValue.string(Base64URL.encode([UInt8](repeating: 7, count: 32)))
    static let smallModulus = JSONValue.string(Base64URL.encode([0xC1] + [UInt8](repeating: 0x55, count: 126) + [0x01]))
    static let evenModulus = JSONValue.string(Base64URL.encode([0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x02]))

    @Test(arguments: [
        (changed(ec, "kty", nil), "JWK has no kty"),
        (changed(ec, "kty", "oct"), "JWK kty must be RSA or EC"),
        (changed(ec, "kty", 3), "JWK kty must be RSA or EC"),
        (changed(ec, "crv", nil), "EC JWK has no crv"),
        (changed(ec, "crv", "P-384"), "EC JWK curve must be P-256"),
        (changed(ec, "x", nil), "JWK has no x"),
        (changed(ec, "y", 12), "JWK y must be a string"),
        (changed(ec, "x", "not+base64url"), "JWK x is not base64url"),
        (changed(ec, "x", shortCoordinate), "JWK x must be 32 bytes"),
        (changed(ec, "y", offCurveY), "invalid EC key parameters"),
        (changed(ec, "use", "enc"), "JWK use must be sig"),
        (changed(ec, "alg", "RS256"), "JWK alg does not match its EC key; expected ES256"),
        (changed(rsa, "n", nil), "JWK has no n"),
        (changed(rsa, "e", nil), "JWK has no e"),
        (changed(rsa, "e", "AA"), "JWK e must be a positive integer"),
        (changed(rsa, "alg", "ES256"), "JWK alg does not match its RSA key; expected RS256"),
        (changed(rsa, "n", smallModulus), "RSA key has 1024 bits; RS256 needs at least 2048"),
        (changed(rsa, "n", evenModulus), "JWK is not a valid public key"),
        (changed(rsa, "e", "AAE"), "JWK is not a valid public key"),  // e = 1
    ])
    func badJWKIsRejectedWithAReason(jwk: JSONObject, reason: String) {
        let error = #expect(throws: JOSEError.self) { try VerificationKey(jwk: jwk) }
        #expect(error?.description.hasPrefix(reason) == true, "\(error?.description ?? "no error")")
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func matchingUseAndAlgAreAccepted() throws {
        var jwk = RFC7515.A3.publicJWK
        jwk["use"] = "sig"
        jwk["alg"] = "ES256"
        jwk["kid"] = "anything"
        #expect(try VerificationKey(jwk: jwk).algorithm == .es256)
    }
}
