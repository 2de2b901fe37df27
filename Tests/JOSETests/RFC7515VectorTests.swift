import JSON
import Testing

@testable import JOSE

/// Checks against RFC 7515 appendix A, computed by someone else.
@Suite struct RFC7515VectorTests {
    @Test func rs256SigningReproducesThePublishedSignature() throws {
        let key = try SigningKey(privateJWK: RFC7515.A2.privateJWK)
        #expect(key.algorithm == .rs256)
        // PKCS#1 v1.5 is deterministic: the same key and input must give the same bytes.
        let signature = try key.sign(Array(RFC7515.A2.signingInput.utf8))
        #expect(Base64URL.encode(signature) == RFC7515.A2.signature)
    }

    @Test func rs256PublishedTokenVerifiesWithThePublishedPublicKey() throws {
        let key = try VerificationKey(jwk: RFC7515.A2.publicJWK)
        let token = try CompactJWT(parsing: RFC7515.A2.token)
        #expect(token.algorithm == "RS256")
        #expect(token.payload["iss"] == "joe")
        #expect(token.payload["exp"] == .int(1_300_819_380))
        #expect(token.signingInput == Array(RFC7515.A2.signingInput.utf8))
        #expect(token.verify(with: key))
    }

    @Test func rs256PublicKeyExportsThePublishedJWKMembers() throws {
        let key = try SigningKey(privateJWK: RFC7515.A2.privateJWK)
        let jwk = key.publicKey.jwk(keyID: "rfc7515-a2")
        #expect(jwk["n"]?.stringValue == RFC7515.A2.n)
        #expect(jwk["e"]?.stringValue == RFC7515.A2.e)
    }

    @Test func es256PublishedTokenVerifiesWithThePublishedPublicKey() throws {
        let key = try VerificationKey(jwk: RFC7515.A3.publicJWK)
        #expect(key.algorithm == .es256)
        let token = try CompactJWT(parsing: RFC7515.A3.token)
        #expect(token.signature.count == 64)
        #expect(token.verify(with: key))
    }

    @Test func es256PublishedPrivateKeySignsWhatThePublishedPublicKeyVerifies() throws {
        let signer = try SigningKey(privateJWK: RFC7515.A3.privateJWK)
        let jwk = signer.publicKey.jwk(keyID: "rfc7515-a3")
        #expect(jwk["x"]?.stringValue == RFC7515.A3.x)
        #expect(jwk["y"]?.stringValue == RFC7515.A3.y)

        let input = Array(RFC7515.A3.signingInput.utf8)
        let signature = try signer.sign(input)
        #expect(signature.count == 64)
        let published = try VerificationKey(jwk: RFC7515.A3.publicJWK)
        #expect(published.verify(signature: signature, over: input, algorithm: .es256))
    }

    @Test func publishedSignaturesFailWhenAnythingChanges() throws {
        let rsa = try VerificationKey(jwk: RFC7515.A2.publicJWK)
        let ec = try VerificationKey(jwk: RFC7515.A3.publicJWK)
        let rsToken = try CompactJWT(parsing: RFC7515.A2.token)
        let esToken = try CompactJWT(parsing: RFC7515.A3.token)

        #expect(!rsToken.verify(with: ec))
        #expect(!esToken.verify(with: rsa))

        var flipped = esToken.signature
        flipped[10] ^= 0x01
        #expect(!ec.verify(signature: flipped, over: esToken.signingInput, algorithm: .es256))
        var changedInput = rsToken.signingInput
        changedInput[changedInput.count - 1] ^= 0x01
        #expect(!rsa.verify(signature: rsToken.signature, over: changedInput, algorithm: .rs256))
    }

    @Test func hs256ExampleParsesButNeverVerifies() throws {
        let token = try CompactJWT(parsing: RFC7515.A1.token)
        #expect(token.algorithm == "HS256")
        #expect(token.header["typ"] == "JWT")
        #expect(!token.verify(with: try VerificationKey(jwk: RFC7515.A2.publicJWK)))
        #expect(!token.verify(with: try VerificationKey(jwk: RFC7515.A3.publicJWK)))
    }

    @Test func inconsistentPrivateJWKIsRejected() throws {
        var jwk = RFC7515.A2.privateJWK
        jwk["dq"] = jwk["dp"]
        #expect(throws: JOSEError.self) { try SigningKey(privateJWK: jwk) }

        var ec = RFC7515.A3.privateJWK
        ec["d"] = .string(Base64URL.encode([UInt8](repeating: 0x11, count: 32)))
        #expect(throws: JOSEError.self) { try SigningKey(privateJWK: ec) }
    }
}
