import Dispatch
import Testing
import JOSE

@Suite struct Base64URLTests {
    /// RFC 4648 §10 test vectors, in the URL alphabet without padding.
    static let rfc4648Vectors: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
        ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: rfc4648Vectors)
    func encodesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    /// An empty part (an unsigned token's signature) decoded on many threads at once: under
    /// ThreadSanitizer (scripts/sanitize) this reported a race on the shared empty array's storage.
    @Test func decodesEmptyTextOnManyThreadsAtOnce() {
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { precondition(Base64URL.decode("") == []) }
        }
    }

    @Test func decodesRFC4648VectorsWithPadding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64URL.decode("Zm9vYmE=") == Array("fooba".utf8))
    }

    /// The two characters where base64url differs from base64 (RFC 4648 §5).
    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test(arguments: [
        "Zm9v+", "Zm/v", "+/8=", "Zm9v!", "Zm 9v", "Zm9v\n", "é", // outside the alphabet
        "Z", "Zm9vY", // a single leftover character cannot hold a byte
        "Zg=", "Zg===", "Z===", "=Zg", "Zm=v", "Zm9v====", // misplaced padding
        "Zh", "Zm9", // non-zero leftover bits: not the canonical encoding of any bytes
    ])
    func rejectsInvalidText(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        for length in 0...bytes.count {
            #expect(Base64URL.decode(Base64URL.encode(bytes.prefix(length))) == Array(bytes.prefix(length)))
        }
    }

    @Test func decodesSubstrings() {
        let token = "Zm9v.YmFy"
        let parts = token.split(separator: ".")
        #expect(Base64URL.decode(parts[1]) == Array("bar".utf8))
    }
}
