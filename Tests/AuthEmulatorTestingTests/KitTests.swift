import AuthEmulatorTesting
import Foundation
import Testing

/// The kit's parts one by one, on the shared emulator (reset first, one test at a time).
@Suite struct KitTests {
    @Test func aWaitThatTimesOutSaysWhatItWaitedForAndWhatArrived() async throws {
        try await Emulator.withFreshState { emulator in
            try await emulator.auth.sendSignInLink(to: "someone@example.com")
            let failure = await #expect(throws: EmulatorKitError.self) {
                try await emulator.project.outbox.waitForMessage(to: "nobody@example.com", timeout: 1)
            }
            #expect(failure?.kind == .timedOut)
            #expect(failure?.description.contains("waited 1 s for a message with to nobody@example.com") == true)
            #expect(failure?.description.contains("to someone@example.com EMAIL_SIGNIN") == true, "\(failure?.description ?? "")")
        }
    }

    @Test func aWaitReturnsTheMessageSentWhileItWaits() async throws {
        try await Emulator.withFreshState { emulator in
            let mark = try await emulator.project.outbox.mark()
            async let waited = emulator.project.outbox.waitForMessage(to: "late@example.com", since: mark, timeout: 30)
            _ = try await emulator.auth.signUp(email: "late@example.com", password: "secret123")
            try await emulator.auth.sendOobCode("PASSWORD_RESET", email: "late@example.com")
            let message = try await waited
            #expect(message.requestType == "PASSWORD_RESET" && message.mode == "resetPassword")
            _ = try await emulator.auth.resetPassword(code: message.oobCode!, newPassword: "secret456")
            _ = try await emulator.auth.signIn(email: "late@example.com", password: "secret456")
        }
    }

    @Test func refusalsAreTypedWithTheGoogleCode() async throws {
        try await Emulator.withFreshState { emulator in
            let failure = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.signIn(email: "missing@example.com", password: "whatever1")
            }
            #expect(failure?.status == 400)
            #expect(failure?.code == "EMAIL_NOT_FOUND" || failure?.code == "INVALID_LOGIN_CREDENTIALS")
            #expect(failure?.request == "POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword")

            let unknownField = await #expect(throws: EmulatorError.self) {
                try await emulator.request("POST", "/emulator/v1/clock:advance", body: ["secs": 5])
            }
            #expect(unknownField?.code == "INVALID_ARGUMENT" && unknownField?.detail?.contains("secs") == true)
        }
    }

    @Test func seededUsersSignInAndCarryWhatWasSeeded() async throws {
        try await Emulator.withFreshState { emulator in
            try await emulator.project.users.seed([
                SeedUser(uid: "ada", email: "ada@example.com", password: "secret123", emailVerified: true,
                         customClaims: ["role": "admin"], providers: [.init(providerId: "google.com", rawId: "1234", email: "ada@example.com")]),
                SeedUser(uid: "bo", email: "bo@example.com", password: "secret123", disabled: true),
                SeedUser(uid: "cy", email: "cy@example.com", emailVerified: true, phoneFactors: ["+16505550101"]),
            ])
            let ada = try await emulator.auth.signIn(email: "ada@example.com", password: "secret123")
            #expect(ada.uid == "ada" && ada.claims?["role"]?.stringValue == "admin")
            let record = try #require(try await emulator.project.users.lookup(uid: "ada"))
            #expect(record.providerIds.contains("google.com") && record.customClaims?["role"] == "admin")
            let disabled = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.signIn(email: "bo@example.com", password: "secret123")
            }
            #expect(disabled?.code == "USER_DISABLED")
            #expect(try await emulator.project.users.lookup(uid: "cy")?.secondFactors.count == 1)
            #expect(try await emulator.project.users.all().map(\.uid) == ["ada", "bo", "cy"])

            let refused = await #expect(throws: EmulatorError.self) {
                try await emulator.project.users.seed(SeedUser(uid: "bad", email: "not an email"))
            }
            #expect(refused?.message.contains("user 0 (bad)") == true)
        }
    }

    @Test func theClockMovesAndTheScopedHelperPutsItBack() async throws {
        try await Emulator.withFreshState { emulator in
            let before = try await emulator.clock.now()
            let inside = try await emulator.clock.advanced(by: 7200) { try await emulator.clock.now() }
            #expect(inside.timeIntervalSince(before) >= 7200)
            #expect(try await emulator.clock.now().timeIntervalSince(before) < 3600)

            _ = try await emulator.auth.signUp(email: "exp@example.com", password: "secret123")
            try await emulator.auth.sendOobCode("PASSWORD_RESET", email: "exp@example.com")
            let code = try await emulator.project.outbox.waitForMessage(to: "exp@example.com").oobCode!
            try await emulator.clock.advance(by: 3601)
            let expired = await #expect(throws: EmulatorError.self) {
                try await emulator.auth.resetPassword(code: code, newPassword: "secret456")
            }
            #expect(expired?.code == "EXPIRED_OOB_CODE")
            let set = try await emulator.clock.set(to: Date().addingTimeInterval(86_400 * 365))
            #expect(set.timeIntervalSinceNow > 86_400 * 364)
        }
    }

    @Test func applyingAVerificationCode() async throws {
        try await Emulator.withFreshState { emulator in
            let user = try await emulator.auth.signUp(email: "vera@example.com", password: "secret123")
            try await emulator.auth.sendOobCode("VERIFY_EMAIL", idToken: user.idToken)
            let message = try await emulator.project.outbox.waitForMessage(to: "vera@example.com", requestType: "VERIFY_EMAIL")
            #expect(message.mode == "verifyEmail")
            try await emulator.auth.applyActionCode(message.oobCode!)
            #expect(try await emulator.project.users.lookup(uid: user.uid)?.emailVerified == true)
        }
    }

    @Test func smsCodesOfPhoneSignIn() async throws {
        try await Emulator.withFreshState { emulator in
            let sent = try await emulator.auth.call("accounts:sendVerificationCode", ["phoneNumber": "+16505550100"])
            let code = try await emulator.project.outbox.waitForSMSCode(to: "+16505550100", requestType: "PHONE_SIGN_IN")
            let user = try await emulator.auth.call("accounts:signInWithPhoneNumber", ["sessionInfo": sent["sessionInfo"]!, "code": .string(code)])
            #expect(user["phoneNumber"] == "+16505550100")
        }
    }

    @Test func relaySettingsBounceUnregisteredSenders() async throws {
        try await Emulator.withFreshState { emulator in
            let apple = try await emulator.providers.mint(.apple, email: "rel@example.com", hideEmail: true)
            _ = try await emulator.auth.signIn(with: apple)
            #expect(try await emulator.providers.relayAddresses().contains { $0.address == apple.email && $0.forwardTo == "rel@example.com" })
            let settings = try await emulator.project.relay.update(registeredSenders: ["support@example.com"], dailyLimit: 5)
            #expect(settings.registeredSenders == ["support@example.com"] && settings.dailyLimit == 5)
            try await emulator.auth.sendSignInLink(to: apple.email!)
            let bounced = try await emulator.project.outbox.waitForMessage(.init(to: apple.email!, status: [.bounced]))
            #expect(bounced.delivery.reason?.hasPrefix("Sender not registered") == true)
            #expect(try await emulator.project.outbox.latest(.init(to: apple.email!)) == nil, "latest skips bounced mail")
        }
    }

    @Test func rotatedKeysKeepOldTokensValid() async throws {
        try await Emulator.withFreshState { emulator in
            let old = try await emulator.providers.mint(.google, email: "rot@example.com")
            let kid = try await emulator.providers.rotateKeys(.google)
            let new = try await emulator.providers.mint(.google, email: "rot@example.com")
            #expect(try JWT.header(of: new.idToken)["kid"]?.stringValue == kid)
            #expect(try await emulator.providers.jwks(.google)["keys"]?.arrayValue?.count ?? 0 >= 2)
            _ = try await emulator.auth.signIn(with: old)
        }
    }

    @Test func everyKindOfProviderCredentialSignsIn() async throws {
        try await Emulator.withFreshState { emulator in
            let classic = try await emulator.providers.mint(.facebook, email: "fb@example.com", name: "Fay")
            #expect(try await emulator.auth.signInWithIdp(postBody: classic.accessTokenPostBody).email == "fb@example.com")
            let oidc = try await emulator.providers.mint(.oidc("oidc.kit"), email: "o@example.com", nonce: "plain")
            #expect(oidc.claims["nonce"] == "plain")
            #expect(try await emulator.auth.signIn(with: oidc).providerId == "oidc.kit")
            let hashed = try await emulator.providers.mint(.apple, email: "h@example.com", hashedNonce: Digest.sha256Hex("raw-h"))
            #expect(!hashed.warnings.isEmpty)
            #expect(try await emulator.auth.signInWithIdp(postBody: hashed.postBody + "&nonce=raw-h").email == "h@example.com")
        }
    }

    @Test func aFailingBodyGivesTheTurnBack() async throws {
        struct Planned: Error {}
        await #expect(throws: Planned.self) {
            try await Emulator.withFreshState { _ in throw Planned() }
        }
        let ran = try await Emulator.withFreshState { emulator in try await emulator.clock.now() }
        #expect(abs(ran.timeIntervalSinceNow) < 300)
    }

    @Test func projectsAndTenantsSideBySide() async throws {
        try await Emulator.withFreshState { emulator in
            let blue = emulator.project("demo-blue")
            let green = emulator.project("demo-green")
            try await blue.users.seed(SeedUser(uid: "same", email: "same@example.com"))
            try await green.users.seed(SeedUser(uid: "same", email: "other@example.com"))
            try await blue.reset()
            #expect(try await blue.users.lookup(uid: "same") == nil)
            #expect(try await green.users.lookup(uid: "same")?.email == "other@example.com")

            let tenant = try await emulator.project.createTenant()
            let user = try await tenant.auth.signUp(email: "ten@example.com", password: "secret123")
            #expect(try await tenant.users.lookup(uid: user.uid)?.email == "ten@example.com")
            #expect(try await emulator.project.users.lookup(uid: user.uid) == nil)
            try await tenant.auth.sendOobCode("PASSWORD_RESET", email: "ten@example.com")
            #expect(try await tenant.outbox.waitForMessage(to: "ten@example.com").tenantId == tenant.tenantId)
        }
    }

    @Test func withFreshStateResetsWhateverTheLastTestLeft() async throws {
        try await Emulator.withFreshState { emulator in
            _ = try await emulator.auth.signUp(email: "left@example.com", password: "secret123")
            try await emulator.clock.advance(by: 600)
        }
        try await Emulator.withFreshState { emulator in
            let left = try await emulator.project.users.lookup(email: "left@example.com")
            #expect(left == nil)
            #expect(try await emulator.project.outbox.messages().isEmpty)
            #expect(abs(try await emulator.clock.now().timeIntervalSinceNow) < 300)
        }
    }

    @Test func digestsMatchTheirTestVectors() throws {
        #expect(Digest.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex(String(repeating: "a", count: 1000)).hasPrefix("41edece42d63e8d9bf515a9ba6932e1c"))
        // RFC 6238 appendix B, SHA-1, the last six digits of 94287082 and 07081804.
        let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        #expect(try TOTP.code(secret: secret, at: Date(timeIntervalSince1970: 59)) == "287082")
        #expect(try TOTP.code(secret: secret, at: Date(timeIntervalSince1970: 1_111_111_109)) == "081804")
        #expect(EmailLink.items(of: "https://x.example/__/auth/links?link=http%3A%2F%2Fh%2Femulator%2Faction%3Fmode%3DsignIn%26oobCode%3DAB%252BC")["oobCode"] == "AB+C")
    }
}

/// The app's own mail, on an emulator of its own with the SMTP listener on.
@Suite struct AppMailTests {
    @Test func aBackendsReceiptThroughTheRelayIsReadLikeFirebasesMail() async throws {
        try await Emulator.withStarted(.init(smtp: true)) { emulator in
            let smtp = try #require(emulator.smtpAddress?.split(separator: ":"))
            let apple = try await emulator.providers.mint(.apple, email: "buyer@example.com", hideEmail: true)
            _ = try await emulator.auth.signIn(with: apple)
            try await emulator.project.relay.update(registeredSenders: ["@shop.example"])
            // A real SMTP client: Python's smtplib, as a backend's mailer would send it.
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", "-c", """
                import smtplib, sys
                from email.message import EmailMessage
                mail = EmailMessage(); mail["From"] = "receipts@shop.example"; mail["To"] = sys.argv[3]; mail["Subject"] = "Your receipt"
                mail.set_content("Thanks."); mail.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="r.pdf")
                with smtplib.SMTP(sys.argv[1], int(sys.argv[2])) as client: client.send_message(mail)
                """, String(smtp[0]), String(smtp[1]), apple.email!]
            try python.run()
            python.waitUntilExit()
            #expect(python.terminationStatus == 0)
            let receipt = try await emulator.project.outbox.waitForMessage(.init(to: apple.email!, subject: "receipt"))
            #expect(receipt.source == "smtp" && receipt.envelope?.from == "receipts@shop.example")
            #expect(receipt.delivery == .init(status: .relayed, forwardedTo: "buyer@example.com"))
            let attachment = try #require(receipt.attachments?.first)
            #expect(attachment.filename == "r.pdf" && attachment.contentType == "application/pdf" && attachment.size == 8)
        }
    }
}
