import Testing

@testable import AuthEmulator

/// The byte-level shortcuts of `EmailAddress.isValid` and `FakePasswordHash.hash` answer as the
/// Character-level definitions they replace.
@Suite struct ValidationShortcutTests {
    static let emails = [
        "", "@", "a@", "@b", "a@b", "a@@b", "a@b@c", "user@example.com", "no-at-sign", "a@b ", " @ ",
        "é@example.com", "a@é", "a@\u{301}b", "a\u{301}@b", "@\u{301}", "x@\u{301}", "\u{600}@b", "a@b\u{600}",
        "😀@😀", "a\r\n@b",
    ]

    @Test(arguments: emails)
    func emailValidityMatchesSplittingIntoCharacters(_ email: String) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        #expect(EmailAddress.isValid(email) == (parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty))
    }

    @Test(arguments: [("secret123", "fakeSaltAbc"), ("", ""), ("pässwörd", "salt"), ("a:b=c", "é\u{301}"), ("😀", "")])
    func fakeHashMatchesInterpolation(_ password: String, _ salt: String) {
        let hash = FakePasswordHash.hash(password, salt: salt)
        #expect(Array(hash.utf8) == Array("fakeHash:salt=\(salt):password=\(password)".utf8))
    }
}
