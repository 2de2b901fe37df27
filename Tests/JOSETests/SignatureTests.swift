import Testing

@testable import JOSE

/// `SigningKey.sign` / `VerificationKey.verify` at the byte level.
@Suite struct SignatureTests {
    static let input = Array("header.payload".utf8)

    @Test func es256SignaturesAreRaw64BytesAndRandomized() throws {
        let first = try TestKeys.p256.sign(Self.input)
        let second = try TestKeys.p256.sign(Self.input)
        #expect(first.count == 64)
        #expect(second.count == 64)
        #expect(first != second)
        #expect(TestKeys.p256.publicKey.verify(signature: first, over: Self.input, algorithm: .es256))
        #expect(TestKeys.p256.publicKey.verify(signature: second, over: Self.input, algorithm: .es256))
    }

    @Test func rs256SignaturesAreModulusSized() throws {
        #expect(try TestKeys.rsa.sign(Self.input).count == 256)
    }

    @Test func emptyInputSignsAndVerifies() throws {
        for key in [TestKeys.rsa, TestKeys.p256] {
            let signature = try key.sign([])
            #expect(key.publicKey.verify(signature: signature, over: [], algorithm: key.algorithm))
            #expect(!key.publicKey.verify(signature: signature, over: [0], algorithm: key.algorithm))
        }
    }

    @Test func verifyFailsForAnotherAlgorithmEvenWithAValidSignature() throws {
        let esSignature = try TestKeys.p256.sign(Self.input)
        let rsSignature = try TestKeys.rsa.sign(Self.input)
        #expect(!TestKeys.p256.publicKey.verify(signature: esSignature, over: Self.input, algorithm: .rs256))
        #expect(!TestKeys.rsa.publicKey.verify(signature: rsSignature, over: Self.input, algorithm: .es256))
        #expect(!TestKeys.rsa.publicKey.verify(signature: esSignature, over: Self.input, algorithm: .rs256))
        #expect(!TestKeys.p256.publicKey.verify(signature: Array(rsSignature.prefix(64)), over: Self.input, algorithm: .es256))
    }

    @Test func verifyFailsForAnotherKey() throws {
        #expect(!TestKeys.otherP256.publicKey.verify(signature: try TestKeys.p256.sign(Self.input), over: Self.input, algorithm: .es256))
        #expect(!TestKeys.otherRSA.publicKey.verify(signature: try TestKeys.rsa.sign(Self.input), over: Self.input, algorithm: .rs256))
    }

    @Test(arguments: [0, 1, 32, 63, 65, 72, 128, 256])
    func es256WrongLengthSignaturesAreFalseNotCrashes(length: Int) throws {
        let signature = try TestKeys.p256.sign(Self.input)
        let resized = Array((signature + signature + signature + signature).prefix(length))
        #expect(!TestKeys.p256.publicKey.verify(signature: resized, over: Self.input, algorithm: .es256))
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test(arguments: [0, 1, 255, 257, 512])
    func rs256WrongLengthSignaturesAreFalse(length: Int) throws {
        let signature = try TestKeys.rsa.sign(Self.input)
        let resized = Array((signature + signature).prefix(length))
        #expect(!TestKeys.rsa.publicKey.verify(signature: resized, over: Self.input, algorithm: .rs256))
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func degenerateES256SignaturesAreFalse() {
        let key = TestKeys.p256.publicKey
        #expect(!key.verify(signature: [UInt8](repeating: 0, count: 64), over: Self.input, algorithm: .es256))
        #expect(!key.verify(signature: [UInt8](repeating: 0xFF, count: 64), over: Self.input, algorithm: .es256))
        #expect(OpenSSLErrorQueue.isEmpty)
    }

    @Test func everySingleBitFlipInAnES256SignatureFails() throws {
        let signature = try TestKeys.p256.sign(Self.input)
        for bit in stride(from: 0, to: 512, by: 7) {
            var flipped = signature
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(!TestKeys.p256.publicKey.verify(signature: flipped, over: Self.input, algorithm: .es256))
        }
    }

    @Test func derAndRawConversionsAgreeWithAnIndependentCodec() throws {
        for _ in 0..<50 {
            let raw = try TestKeys.p256.sign(Self.input)
            let der = try #require(ECDSASignatureEncoding.der(fromRaw: raw))
            #expect(der == ECDSASignatureDER.der(fromRaw: raw))
            #expect(try ECDSASignatureEncoding.raw(fromDER: der) == raw)
        }
        #expect(ECDSASignatureEncoding.der(fromRaw: [UInt8](repeating: 1, count: 63)) == nil)
        #expect(throws: JOSEError.self) { try ECDSASignatureEncoding.raw(fromDER: [0x30, 0x00]) }
        #expect(OpenSSLErrorQueue.isEmpty)
    }
}
