import JOSE
import Testing

/// RFC 6238 Appendix B (SHA-1 rows, 8 digits) and RFC 4648 base32 vectors.
@Suite struct TOTPTests {
    static let rfcSecret = Array("12345678901234567890".utf8)

    @Test(arguments: [
        (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238Vectors(_ vector: (Int64, String)) {
        #expect(TOTP.code(secret: Self.rfcSecret, unixSeconds: vector.0, digits: 8) == vector.1)
    }

    @Test func verificationAllowsTheWindowAndNoMore() {
        let now: Int64 = 1_700_000_000
        let twoStepsAgo = TOTP.code(secret: Self.rfcSecret, unixSeconds: now - 60)
        #expect(TOTP.verify(twoStepsAgo, secret: Self.rfcSecret, unixSeconds: now, window: 2))
        #expect(!TOTP.verify(twoStepsAgo, secret: Self.rfcSecret, unixSeconds: now, window: 1))
        #expect(!TOTP.verify("000000", secret: Self.rfcSecret, unixSeconds: now, window: 0)
            || TOTP.code(secret: Self.rfcSecret, unixSeconds: now) == "000000")
    }

    @Test func base32RoundTripsAndMatchesRFC4648() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Array("f".utf8)) == "MY")
        #expect(Base32.decode("mzxw6ytboi======") == Array("foobar".utf8))
        #expect(Base32.decode("not base32!") == nil)
        #expect(Base32.encode(Self.rfcSecret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    }
}
