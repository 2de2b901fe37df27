// The examples of Sources/AuthEmulatorTesting/README.md, compiled and run here; ReadmeTests checks
// that each ```swift block of the README is a verbatim part of this file.
import AuthEmulatorTesting
import Foundation
import Testing
import XCTest

// README: first test
@Test func appleUserWithAHiddenEmailGetsTheSignInLink() async throws {
    try await Emulator.withFreshState { emulator in
        let apple = try await emulator.providers.mint(.apple, email: "ada@example.com", hideEmail: true, nonce: "n-1")
        let user = try await emulator.auth.signIn(with: apple)
        try await emulator.auth.sendSignInLink(to: user.email!)
        let message = try await emulator.project.outbox.waitForMessage(to: user.email!)
        #expect(message.delivery.status == .relayed && message.delivery.forwardedTo == "ada@example.com")
    }
}

// README: XCTest
final class EmailLinkTests: XCTestCase {
    func testEmailLinkSignsInANewUser() async throws {
        try await Emulator.withFreshState { emulator in
            try await emulator.auth.sendSignInLink(to: "grace@example.com")
            let message = try await emulator.project.outbox.waitForMessage(to: "grace@example.com")
            let user = try await emulator.auth.signIn(email: "grace@example.com", emailLink: message.link!)
            XCTAssertTrue(user.isNewUser)
        }
    }
}

// README: an emulator of the suite's own
@Suite struct StrictModeTests {
    @Test func anUnsignedTokenIsRefused() async throws {
        try await Emulator.withStarted(.init(arguments: ["--idp-tokens", "strict"])) { emulator in
            let unsigned = #"providerId=google.com&id_token={"sub":"1","iss":"https://accounts.google.com"}"#
            let refusal = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.signInWithIdp(postBody: unsigned)
            }
            #expect(refusal?.code == "INVALID_IDP_RESPONSE")
        }
    }
}

// README: users
@Test func seededAdminSeesTheDashboard() async throws {
    try await Emulator.withFreshState { emulator in
        try await emulator.project.users.seed([
            SeedUser(uid: "admin-1", email: "admin@example.com", password: "secret123", emailVerified: true,
                     customClaims: ["role": "admin"]),
            SeedUser(email: "banned@example.com", password: "secret123", disabled: true),
        ])
        let admin = try await emulator.auth.signIn(email: "admin@example.com", password: "secret123")
        #expect(admin.claims?["role"] == "admin")
    }
}

// README: clock
@Test func aPasswordResetCodeExpiresAfterAnHour() async throws {
    try await Emulator.withFreshState { emulator in
        try await emulator.project.users.seed(SeedUser(email: "ada@example.com", password: "secret123"))
        try await emulator.auth.sendOobCode("PASSWORD_RESET", email: "ada@example.com")
        let code = try await emulator.project.outbox.waitForMessage(to: "ada@example.com").oobCode!
        try await emulator.clock.advanced(by: 3601) {
            let refusal = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.resetPassword(code: code, newPassword: "secret456")
            }
            #expect(refusal?.code == "EXPIRED_OOB_CODE")
        }
    }
}
