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

    @Test func noValueRepeatsAcrossBufferRefillsOrThreads() async {
        // Small requests come from a per-thread buffer refilled every 4 KiB: 600 draws of 16
        // bytes on each of four threads cross several refills; any repeat would be a reused byte.
        let draws = await withTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<4 { group.addTask { (0..<600).map { _ in SecureRandom.bytes(16) } } }
            var all: [[UInt8]] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(draws.count == 2400 && Set(draws).count == draws.count)
        #expect(draws.allSatisfy { $0.count == 16 })
        #expect(SecureRandom.bytes(5000).count == 5000)  // larger than the buffer: drawn directly
    }
}
