import Testing
import JOSE

@Suite struct SHA256Tests {
    /// FIPS 180-2 appendix B examples plus the empty message.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func matchesPublishedVectors(message: String, hex: String) {
        #expect(SHA256.hexDigest(of: message) == hex)
        #expect(SHA256.hash(Array(message.utf8)).count == 32)
    }

    @Test func hashesAnyByteCollection() {
        let bytes: [UInt8] = Array("abc".utf8)
        #expect(SHA256.hash(bytes[...]) == SHA256.hash(bytes))
        #expect(SHA256.hash("abc".utf8) == SHA256.hash(bytes))
    }
}

@Suite struct SecureRandomTests {
    @Test func returnsTheRequestedCount() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        #expect(SecureRandom.bytes(64).count == 64)
    }

    @Test func doesNotRepeat() {
        // 2^-256 chance of a false failure.
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}
