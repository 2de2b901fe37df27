import AuthEmulator
import Foundation
import Testing

@Suite struct InstantTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"), (1_700_000_000_000, "2023-11-14T22:13:20.000Z"),
        (951_782_400_123, "2000-02-29T00:00:00.123Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
    ] as [(Int64, String)])
    func formatsRFC3339(_ milliseconds: Int64, _ expected: String) {
        #expect(Instant(millisecondsSinceEpoch: milliseconds).rfc3339 == expected)
    }

    /// Agrees with Foundation's formatter over a spread of instants.
    @Test func matchesFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var milliseconds: Int64 = -2_208_988_800_000  // 1900
        while milliseconds < 4_102_444_800_000 {  // 2100
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(Instant(millisecondsSinceEpoch: milliseconds).rfc3339 == expected)
            milliseconds += 7_777_777_777
        }
    }

    /// Imported `enrolledAt` values come from outside: a fraction of any length reads as its
    /// milliseconds, and malformed ones are refused, never a trap.
    @Test func parsesFractionsOfAnyLengthAndRefusesGarbage() {
        #expect(Instant(rfc3339: "2000-02-29T00:00:00.123Z")?.millisecondsSinceEpoch == 951_782_400_123)
        #expect(Instant(rfc3339: "2000-02-29T00:00:00.1Z")?.millisecondsSinceEpoch == 951_782_400_100)
        #expect(Instant(rfc3339: "2000-02-29T00:00:00Z")?.millisecondsSinceEpoch == 951_782_400_000)
        let long = "2000-02-29T00:00:00." + String(repeating: "9", count: 40) + "Z"
        #expect(Instant(rfc3339: long)?.millisecondsSinceEpoch == 951_782_400_999)
        for bad in ["2000-02-29T00:00:00.12x4Z", "2000-02-29T00:00:00.-1Z", "9999999999999999999999Z", "", "Z"] {
            #expect(Instant(rfc3339: bad) == nil, "\(bad)")
        }
    }
}
