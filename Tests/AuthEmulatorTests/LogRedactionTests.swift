@testable import AuthEmulator
import Testing

/// What a refusal's log line keeps readable and what it shortens (the end-to-end check is
/// Tests/python/test_request_log.py).
@Suite struct LogRedactionTests {
    @Test func secretsAreShortenedToTheirFirstCharactersAndLength() {
        let jwt = "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        #expect(LogRedaction.shorten("INVALID_ID_TOKEN : \(jwt) is not valid") == "INVALID_ID_TOKEN : eyJhbG…(\(jwt.count - 1)). is not valid")
        let hash = String(repeating: "3a7bd3e2", count: 8)
        #expect(LogRedaction.shorten("nonce \(hash).") == "nonce 3a7bd3…(64).")
        #expect(LogRedaction.shorten("code TQCm4QqFlkwEVQ4XUuqtxvJHe7B8") == "code TQCm4Q…(28)")
        // A URL stays readable; its query values are judged one by one.
        #expect(LogRedaction.shorten("see http://127.0.0.1:9099/emulator/action?mode=x&oobCode=TQCm4QqFlkwEVQ4XUuqtxvJHe7B8")
            == "see http://127.0.0.1:9099/emulator/action?mode=x&oobCode=TQCm4Q…(28)")
    }

    @Test func ordinaryWordsStayWhole() {
        let message = "DUPLICATE_EMAIL : averyveryverylongname2024@example.com at 2026-12-02T02:12:17.000Z, +15555550100, oidc.provider-2024-staging, 12345678901234567890123"
        #expect(LogRedaction.shorten(message) == message)
    }

    @Test func aMessageStaysOnOneLineAndBounded() {
        #expect(LogRedaction.shorten("first\nsecond\r\tthird") == "first second  third")
        let long = String(repeating: "word ", count: 400)
        #expect(LogRedaction.shorten(long).count == LogRedaction.maximumLength + 1)
    }
}
