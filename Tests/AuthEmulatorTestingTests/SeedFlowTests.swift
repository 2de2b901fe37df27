import AuthEmulatorTesting
import Foundation
import Testing

/// The seeds' flows, written as an iOS team's backend test or XCUITest helper would write them
/// with the kit. Each runs on the shared emulator, reset first (`withFreshState`). The same flows
/// written with URLSession alone are in RawURLSessionFlowTests.swift, for the line counts.
@Suite struct SeedFlowTests {
    @Test func signInWithAppleHiddenEmailThenRelayForwarding() async throws {
        try await Emulator.withFreshState { emulator in
            let nonce = "raw-nonce-\(UUID().uuidString)"
            let apple = try await emulator.providers.mint(.apple, email: "ada@example.com", hideEmail: true, nonce: nonce)
            let user = try await emulator.auth.signIn(with: apple, appleName: PersonName(firstName: "Ada", lastName: "L"))
            #expect(apple.claims["nonce"]?.stringValue == Digest.sha256Hex(nonce))
            #expect(user.email == apple.email && user.email?.hasSuffix("@privaterelay.appleid.com") == true)
            #expect(user.displayName == "Ada L" && apple.realEmail == "ada@example.com")

            try await emulator.auth.sendSignInLink(to: user.email!)
            let relayed = try await emulator.project.outbox.waitForMessage(to: user.email!)
            #expect(relayed.delivery == .init(status: .relayed, forwardedTo: "ada@example.com", reason: nil))

            try await emulator.providers.setRelayForwarding(user.email!, false)
            try await emulator.auth.sendSignInLink(to: user.email!)
            let bounced = try await emulator.project.outbox.waitForMessage(.init(to: user.email!, status: [.bounced]))
            #expect(bounced.delivery.reason?.hasPrefix("Forwarding off") == true)
        }
    }

    @Test func emailLinkSignIn() async throws {
        try await Emulator.withFreshState { emulator in
            try await emulator.auth.sendSignInLink(to: "grace@example.com", continueUrl: "https://app.example.com/done")
            let message = try await emulator.project.outbox.waitForMessage(to: "grace@example.com", requestType: "EMAIL_SIGNIN")
            #expect(message.mode == "signIn" && message.continueUrl == "https://app.example.com/done")
            let user = try await emulator.auth.signIn(email: "grace@example.com", emailLink: message.link!)
            #expect(user.isNewUser && user.email == "grace@example.com")
            #expect(try await emulator.project.users.lookup(email: "grace@example.com")?.emailVerified == true)
        }
    }

    @Test func facebookLimitedLogin() async throws {
        try await Emulator.withFreshState { emulator in
            let nonce = UUID().uuidString
            let token = try await emulator.providers.mint(.facebook, email: "fay@example.com", name: "Fay Book", nonce: nonce)
            let user = try await emulator.auth.signIn(with: token)
            #expect(user.providerId == "facebook.com" && user.displayName == "Fay Book")

            let refused = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.signInWithIdp(postBody: "providerId=facebook.com&id_token=\(token.idToken)&nonce=other")
            }
            #expect(refused?.code == "MISSING_OR_INVALID_NONCE")
        }
    }

    @Test func yahooThroughTheSignInPageWithoutJavaScript() async throws {
        try await Emulator.withFreshState { emulator in
            let page = try await emulator.providers.signInThroughPage(.yahoo, email: "yuri@example.com", displayName: "Yuri")
            #expect(page.callbackURL.hasPrefix("app-1-1234567890-ios-abcdef123456://firebaseauth/link?deep_link_id="))
            let user = try await emulator.auth.signIn(with: page)
            #expect(user.providerId == "yahoo.com" && user.email == "yuri@example.com" && user.displayName == "Yuri")
        }
    }

    @Test func appleTokenRevokedBeforeTheAccountIsDeleted() async throws {
        try await Emulator.withFreshState { emulator in
            let apple = try await emulator.providers.mint(.apple, email: "del@example.com")
            let user = try await emulator.auth.signIn(with: apple)
            try await emulator.auth.revokeAppleToken(authorizationCode: apple.authorizationCode!, idToken: user.idToken!)
            try await emulator.auth.deleteAccount(idToken: user.idToken!)

            let revocations = try await emulator.providers.appleRevocations()
            #expect(revocations.map(\.sub) == [apple.sub] && revocations.first?.projectId == emulator.projectId)
            #expect(try await emulator.project.users.lookup(uid: user.uid) == nil)
        }
    }

    @Test func totpSecondFactor() async throws {
        try await Emulator.withFreshState { emulator in
            try await emulator.project.users.seed(SeedUser(email: "tess@example.com", password: "secret123", emailVerified: true))
            let signedIn = try await emulator.auth.signIn(email: "tess@example.com", password: "secret123")
            let enrollment = try await emulator.auth.startTOTPEnrollment(idToken: signedIn.idToken!)
            let code = try TOTP.code(secret: enrollment.sharedSecretKey, at: try await emulator.clock.now())
            _ = try await emulator.auth.finishTOTPEnrollment(idToken: signedIn.idToken!, enrollment: enrollment, code: code)

            let pending = try await emulator.auth.signIn(email: "tess@example.com", password: "secret123")
            let factor = try #require(try await emulator.project.users.lookup(email: "tess@example.com")?.secondFactors.first)
            try await emulator.clock.advanced(by: 30) {
                let next = try TOTP.code(secret: enrollment.sharedSecretKey, at: try await emulator.clock.now())
                let user = try await emulator.auth.finishSignInWithTOTP(
                    pending: pending, enrollmentId: factor["mfaEnrollmentId"]!.stringValue!, code: next)
                #expect(pending.idToken == nil && user.idToken != nil)
            }
        }
    }
}
