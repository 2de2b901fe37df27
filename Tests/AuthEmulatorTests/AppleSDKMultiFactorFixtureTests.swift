import Foundation
import JOSE
import JSON
import Testing

/// Replays the Apple SDK's phone and multi-factor request bodies (`fixtures/apple-sdk`: v3
/// sendVerificationCode / verifyPhoneNumber, v2 mfaEnrollment / mfaSignIn) in the order an app makes
/// them (wire §3.18), takes each SMS code from the outbox as the user's phone would get it, computes
/// TOTP codes as an authenticator app would, and checks what the SDK reads back (wire §3.14, §3.15).
@Suite struct AppleSDKMultiFactorFixtureTests {
    typealias Fixture = AppleSDKFixtureTests
    typealias Federation = AppleSDKFederationFixtureTests
    typealias Email = AppleSDKEmailFixtureTests

    /// The numbers in sendVerificationCode.json and mfaEnrollmentStartPhone.json.
    static let phoneNumber = "+16505550100"
    static let secondFactorNumber = "+16505550101"
    /// How production (and the emulator) shows a phone factor to a client: all digits but the last four masked.
    static let secondFactorHint = "+*******0101"

    // MARK: Phone sign-in

    @Test func phoneSignInRefreshReauthenticateAndExpiredCodes() throws {
        let emulator = try TestEmulator()

        // verifyPhoneNumber(_:uiDelegate:) → sendVerificationCode; the SDK reads sessionInfo only.
        let sent = try Fixture.replay("sendVerificationCode", on: emulator)
        let sessionInfo = try Federation.string(sent, "sessionInfo")
        let message = try Self.latestMessage(to: Self.phoneNumber, on: emulator)
        #expect(message["requestType"] == "PHONE_SIGN_IN")
        let code = try #require(message["oobCode"]?.stringValue)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        #expect(message["text"] == .string("\(code) is your verification code for project-\(TestEmulator.project)."))

        // A wrong code is an error and leaves the session usable.
        let wrong = try Fixture.replay(
            "verifyPhoneNumber", on: emulator, ["sessionInfo": sessionInfo, "code": code == "000000" ? "111111" : "000000"])
        #expect(wrong.status == 400)
        #expect(wrong.errorMessage == "INVALID_CODE")

        // signIn(with: PhoneAuthProvider.credential(withVerificationID:verificationCode:)).
        let signIn = try Fixture.replay("verifyPhoneNumber", on: emulator, ["sessionInfo": sessionInfo, "code": code])
        #expect(signIn.status == 200)
        let idToken = try Federation.string(signIn, "idToken")
        let refreshToken = try Federation.string(signIn, "refreshToken")
        let localId = try Federation.string(signIn, "localId")
        #expect(signIn["isNewUser"] == true)
        #expect(signIn["phoneNumber"] == .string(Self.phoneNumber))
        #expect(signIn["expiresIn"] == "3600")  // a string, or the SDK refreshes in a loop
        #expect(signIn["temporaryProof"] == nil)  // else the SDK reports credentialAlreadyInUse
        #expect(try TokenInspection.decode(idToken).payload["firebase"]?["sign_in_provider"] == "phone")
        #expect(try TokenInspection.decode(idToken).payload["phone_number"] == .string(Self.phoneNumber))

        // The code is used up.
        let reused = try Fixture.replay("verifyPhoneNumber", on: emulator, ["sessionInfo": sessionInfo, "code": code])
        #expect(reused.status == 400)

        emulator.clock.advance(seconds: 10)
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        #expect(refreshed["access_token"]?.stringValue?.isEmpty == false)
        #expect(refreshed["expires_in"] == "3600")

        let user = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(user["localId"] == .string(localId))
        #expect(user["phoneNumber"] == .string(Self.phoneNumber))
        #expect(Federation.providerIds(user) == ["phone"])
        #expect(user["mfaInfo"] == nil || user["mfaInfo"]?.arrayValue?.isEmpty == true)

        // reauthenticate(with:) → the same two calls, operation REAUTH; the same user comes back.
        let again = try Fixture.replay("sendVerificationCode", on: emulator)
        let reauthCode = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        let reauth = try Fixture.replay(
            "reauthenticateWithPhone", on: emulator, ["sessionInfo": try Federation.string(again, "sessionInfo"), "code": reauthCode])
        #expect(reauth.status == 200)
        #expect(reauth["localId"] == .string(localId))
        #expect(reauth["isNewUser"] != true)
        _ = try Federation.string(reauth, "idToken")
        _ = try Federation.string(reauth, "refreshToken")

        // Reauthenticating a number nobody has: USER_NOT_FOUND, and no user is made.
        let unknownNumber = "+16505550199"
        let stranger = try Email.replay("sendVerificationCode", on: emulator, setting: ["phoneNumber": .string(unknownNumber)])
        let strangerCode = try #require(try Self.latestMessage(to: unknownNumber, on: emulator)["oobCode"]?.stringValue)
        let notFound = try Fixture.replay(
            "reauthenticateWithPhone", on: emulator,
            ["sessionInfo": try Federation.string(stranger, "sessionInfo"), "code": strangerCode])
        #expect(notFound.status == 400)
        #expect(notFound.errorMessage == "USER_NOT_FOUND")
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")

        // An SMS code lives 5 minutes by the emulator clock.
        let late = try Fixture.replay("sendVerificationCode", on: emulator)
        let lateCode = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        emulator.clock.advance(seconds: 301)
        let expired = try Fixture.replay(
            "verifyPhoneNumber", on: emulator, ["sessionInfo": try Federation.string(late, "sessionInfo"), "code": lateCode])
        #expect(expired.status == 400)
        #expect(expired.errorMessage?.hasPrefix("SESSION_EXPIRED") == true)
    }

    @Test func linkAndUpdatePhoneNumber() throws {
        let emulator = try TestEmulator()
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let localId = try Federation.string(anonymous, "localId")

        // link(with: phone credential) → [refresh] → verifyPhoneNumber(idToken, LINK); the SDK
        // crashes on a link answer without both tokens.
        let sent = try Fixture.replay("sendVerificationCode", on: emulator)
        let code = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        let linked = try Fixture.replay(
            "linkPhone", on: emulator,
            ["sessionInfo": try Federation.string(sent, "sessionInfo"), "code": code,
             "idToken": try Federation.string(anonymous, "idToken")])
        #expect(linked.status == 200)
        #expect(linked["localId"] == .string(localId))
        #expect(linked["phoneNumber"] == .string(Self.phoneNumber))
        #expect(linked["temporaryProof"] == nil)
        let idToken = try Federation.string(linked, "idToken")
        _ = try Federation.string(linked, "refreshToken")
        let afterLink = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))
        #expect(afterLink["phoneNumber"] == .string(Self.phoneNumber))
        #expect(Federation.providerIds(afterLink) == ["phone"])

        // updatePhoneNumber(_:) → verifyPhoneNumber(idToken, UPDATE) → [refresh] → getAccountInfo.
        let newNumber = "+16505550102"
        let update = try Email.replay("sendVerificationCode", on: emulator, setting: ["phoneNumber": .string(newNumber)])
        let updateCode = try #require(try Self.latestMessage(to: newNumber, on: emulator)["oobCode"]?.stringValue)
        let updated = try Fixture.replay(
            "updatePhoneNumber", on: emulator,
            ["sessionInfo": try Federation.string(update, "sessionInfo"), "code": updateCode, "idToken": idToken])
        #expect(updated.status == 200)
        #expect(updated["localId"] == .string(localId))
        #expect(updated["phoneNumber"] == .string(newNumber))
        let updatedToken = try Federation.string(updated, "idToken")
        let updatedRefresh = try Federation.string(updated, "refreshToken")
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": updatedRefresh])
        #expect(refreshed["access_token"]?.stringValue?.isEmpty == false)
        let afterUpdate = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": updatedToken]))
        #expect(afterUpdate["phoneNumber"] == .string(newNumber))
        #expect(Federation.provider("phone", of: afterUpdate)?["phoneNumber"] == .string(newNumber))
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")
    }

    @Test func linkingAnOwnedNumberGivesATemporaryProofThatSignsInAsTheOwner() throws {
        let emulator = try TestEmulator()
        // The number's owner.
        let first = try Fixture.replay("sendVerificationCode", on: emulator)
        let firstCode = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        let owner = try Fixture.replay(
            "verifyPhoneNumber", on: emulator, ["sessionInfo": try Federation.string(first, "sessionInfo"), "code": firstCode])
        let ownerId = try Federation.string(owner, "localId")

        // Another user tries to link it: 200 with phoneNumber + temporaryProof and no tokens, which
        // the SDK turns into credentialAlreadyInUse carrying a temporary-proof credential.
        let anonymous = try Fixture.replay("signInAnonymously", on: emulator)
        let anonymousToken = try Federation.string(anonymous, "idToken")
        let sent = try Fixture.replay("sendVerificationCode", on: emulator)
        let code = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        let inUse = try Fixture.replay(
            "linkPhone", on: emulator,
            ["sessionInfo": try Federation.string(sent, "sessionInfo"), "code": code, "idToken": anonymousToken])
        #expect(inUse.status == 200)
        let phoneNumber = try Federation.string(inUse, "phoneNumber")
        let temporaryProof = try Federation.string(inUse, "temporaryProof")
        #expect(phoneNumber == Self.phoneNumber)
        #expect(inUse["temporaryProofExpiresIn"] == "3600")
        #expect(inUse["idToken"] == nil)
        #expect(inUse["refreshToken"] == nil)
        // The anonymous user did not get the number.
        let stillAnonymous = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": anonymousToken]))
        #expect(stillAnonymous["phoneNumber"] == nil)

        // Linking the proof to the other user: PHONE_NUMBER_EXISTS.
        let linkProof = try emulator.legacy(
            "verifyPhoneNumber",
            ["temporaryProof": .string(temporaryProof), "phoneNumber": .string(phoneNumber),
             "idToken": .string(anonymousToken), "operation": "LINK"])
        #expect(linkProof.status == 400)
        #expect(linkProof.errorMessage?.hasPrefix("PHONE_NUMBER_EXISTS") == true)

        // signIn(with: error.updatedCredential) → verifyPhoneNumber {temporaryProof, phoneNumber}.
        let signIn = try Fixture.replay(
            "signInWithTemporaryProof", on: emulator, ["temporaryProof": temporaryProof, "phoneNumber": phoneNumber])
        #expect(signIn.status == 200)
        #expect(signIn["localId"] == .string(ownerId))
        #expect(signIn["isNewUser"] != true)
        #expect(signIn["phoneNumber"] == .string(Self.phoneNumber))
        #expect(signIn["expiresIn"] == "3600")
        let idToken = try Federation.string(signIn, "idToken")
        _ = try Federation.string(signIn, "refreshToken")
        #expect(try TokenInspection.decode(idToken).payload["firebase"]?["sign_in_provider"] == "phone")
        #expect(try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": idToken]))["localId"]
            == .string(ownerId))
    }

    // MARK: SMS second factor

    @Test func phoneFactorEnrollmentThenResolverSignIn() throws {
        let emulator = try TestEmulator()
        let user = try Email.passwordUser(on: emulator)

        // Enrolling needs a verified email.
        let unverified = try Fixture.replay("mfaEnrollmentStartPhone", on: emulator, ["idToken": user.idToken])
        #expect(unverified.status == 400)
        #expect(unverified.errorMessage?.hasPrefix("UNVERIFIED_EMAIL") == true)
        #expect(try emulator.admin("accounts:update", ["localId": .string(user.localId), "emailVerified": true]).status == 200)

        let enrollmentId = try Self.enrollPhone(user, on: emulator)

        // signIn(withEmail:password:) → verifyPassword answers no idToken but the resolver's data;
        // the SDK throws secondFactorRequired with a MultiFactorResolver.
        let first = try Fixture.replay("verifyPassword", on: emulator)
        #expect(first.status == 200)
        #expect(first["idToken"] == nil)
        #expect(first["refreshToken"] == nil)
        let pending = try Federation.string(first, "mfaPendingCredential")
        let hints = try #require(first["mfaInfo"]?.arrayValue)
        try #require(hints.count == 1)
        let hint = hints[0]
        #expect(hint["mfaEnrollmentId"] == .string(enrollmentId))  // the SDK crashes without it
        #expect(hint["phoneInfo"] == .string(Self.secondFactorHint))
        #expect(hint["totpInfo"] == nil)
        #expect(hint["displayName"] == "Work phone")
        #expect(hint["enrolledAt"]?.stringValue?.isEmpty == false)
        #expect(hint["unobfuscatedPhoneInfo"] == nil)  // the client sees only the masked number
        let phoneHint = try #require(hint["phoneInfo"]?.stringValue)

        // PhoneAuthProvider.verifyPhoneNumber(with: hint, multiFactorSession:) → mfaSignIn:start,
        // sending the masked number back verbatim.
        let start = try Fixture.replay(
            "mfaSignInStart", on: emulator,
            ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "phoneHint": phoneHint])
        #expect(start.status == 200)
        let sessionInfo = try #require(start["phoneResponseInfo"]?["sessionInfo"]?.stringValue)  // else internalError
        let message = try Self.latestMessage(to: Self.secondFactorNumber, on: emulator)
        #expect(message["requestType"] == "MFA_SIGN_IN")
        let code = try #require(message["oobCode"]?.stringValue)

        let wrong = try Fixture.replay(
            "mfaSignInFinalizePhone", on: emulator,
            ["mfaPendingCredential": pending, "sessionInfo": sessionInfo, "code": code == "000000" ? "111111" : "000000"])
        #expect(wrong.status == 400)
        #expect(wrong.errorMessage == "INVALID_CODE")

        // resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with:)) → mfaSignIn:finalize
        // → refresh (always: expiresIn is not read) → getAccountInfo.
        let finalized = try Fixture.replay(
            "mfaSignInFinalizePhone", on: emulator, ["mfaPendingCredential": pending, "sessionInfo": sessionInfo, "code": code])
        #expect(finalized.status == 200)
        let idToken = try Federation.string(finalized, "idToken")
        let refreshToken = try Federation.string(finalized, "refreshToken")
        let claims = try #require(try TokenInspection.decode(idToken).payload["firebase"])
        #expect(claims["sign_in_provider"] == "password")
        #expect(claims["sign_in_second_factor"] == "phone")
        #expect(claims["second_factor_identifier"] == .string(enrollmentId))
        #expect(try TokenInspection.decode(idToken).payload["user_id"] == .string(user.localId))

        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        let accessToken = try Federation.string(refreshed, "access_token")
        #expect(refreshed["expires_in"] == "3600")
        let refreshedClaims = try #require(try TokenInspection.decode(accessToken).payload["firebase"])
        #expect(refreshedClaims["sign_in_second_factor"] == "phone")
        #expect(refreshedClaims["second_factor_identifier"] == .string(enrollmentId))

        let info = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": accessToken]))
        #expect(info["localId"] == .string(user.localId))
        let factors = try #require(info["mfaInfo"]?.arrayValue)
        #expect(factors.count == 1)
        #expect(factors.first?["mfaEnrollmentId"] == .string(enrollmentId))
        #expect(factors.first?["phoneInfo"]?.stringValue?.isEmpty == false)

        // The SMS code is used up.
        let reused = try Fixture.replay(
            "mfaSignInFinalizePhone", on: emulator, ["mfaPendingCredential": pending, "sessionInfo": sessionInfo, "code": code])
        #expect(reused.status == 400)

        // An MFA sign-in code expires like any SMS code.
        let second = try Fixture.replay("verifyPassword", on: emulator)
        let secondPending = try Federation.string(second, "mfaPendingCredential")
        let secondStart = try Fixture.replay(
            "mfaSignInStart", on: emulator,
            ["mfaPendingCredential": secondPending, "mfaEnrollmentId": enrollmentId, "phoneHint": phoneHint])
        let secondSession = try #require(secondStart["phoneResponseInfo"]?["sessionInfo"]?.stringValue)
        let secondCode = try #require(try Self.latestMessage(to: Self.secondFactorNumber, on: emulator)["oobCode"]?.stringValue)
        emulator.clock.advance(seconds: 301)
        let expired = try Fixture.replay(
            "mfaSignInFinalizePhone", on: emulator,
            ["mfaPendingCredential": secondPending, "sessionInfo": secondSession, "code": secondCode])
        #expect(expired.status == 400)
        #expect(expired.errorMessage?.hasPrefix("SESSION_EXPIRED") == true)
    }

    @Test func phoneEnrollmentCodeExpires() throws {
        let emulator = try TestEmulator()
        let user = try Self.verifiedPasswordUser(on: emulator)
        let start = try Fixture.replay("mfaEnrollmentStartPhone", on: emulator, ["idToken": user.idToken])
        let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)
        let code = try #require(try Self.latestMessage(to: Self.secondFactorNumber, on: emulator)["oobCode"]?.stringValue)
        emulator.clock.advance(seconds: 301)
        let expired = try Fixture.replay(
            "mfaEnrollmentFinalizePhone", on: emulator, ["idToken": user.idToken, "sessionInfo": sessionInfo, "code": code])
        #expect(expired.status == 400)
        #expect(expired.errorMessage?.hasPrefix("SESSION_EXPIRED") == true)
    }

    // MARK: TOTP second factor

    @Test func totpEnrollmentThenResolverSignIn() throws {
        let emulator = try TestEmulator()
        let user = try Self.verifiedPasswordUser(on: emulator)

        // TOTPMultiFactorGenerator.generateSecret(with: session) → mfaEnrollment:start {totpEnrollmentInfo: {}}.
        let start = try Fixture.replay("mfaEnrollmentStartTOTP", on: emulator, ["idToken": user.idToken])
        #expect(start.status == 200)
        let session = try #require(start["totpSessionInfo"])
        let sharedSecretKey = try #require(session["sharedSecretKey"]?.stringValue)  // the SDK crashes without it
        #expect(session["verificationCodeLength"] == 6)
        #expect(session["hashingAlgorithm"] == "SHA1")
        #expect(session["periodSec"] == 30)
        let sessionInfo = try #require(session["sessionInfo"]?.stringValue)
        #expect(session["finalizeEnrollmentTime"]?.stringValue?.isEmpty == false)
        let secret = try #require(Base32.decode(sharedSecretKey))
        #expect(secret.count >= 10)
        #expect(session["otpauthUri"]?.stringValue?.contains("secret=\(sharedSecretKey)") == true)

        func code(_ emulator: TestEmulator) -> String {
            TOTP.code(secret: secret, unixSeconds: emulator.clock.now().secondsSinceEpoch)
        }
        let wrong = try Fixture.replay(
            "mfaEnrollmentFinalizeTOTP", on: emulator,
            ["idToken": user.idToken, "sessionInfo": sessionInfo, "verificationCode": Self.otherCode(than: code(emulator))])
        #expect(wrong.status == 400)
        #expect(wrong.errorMessage == "INVALID_CODE")

        // multiFactor.enroll(with: TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:),
        // displayName:) → mfaEnrollment:finalize → refresh → getAccountInfo.
        let finalized = try Fixture.replay(
            "mfaEnrollmentFinalizeTOTP", on: emulator,
            ["idToken": user.idToken, "sessionInfo": sessionInfo, "verificationCode": code(emulator)])
        #expect(finalized.status == 200)
        let enrolledToken = try Federation.string(finalized, "idToken")
        let enrolledRefresh = try Federation.string(finalized, "refreshToken")
        #expect(try TokenInspection.decode(enrolledToken).payload["firebase"]?["sign_in_second_factor"] == "totp")
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": enrolledRefresh])
        let accessToken = try Federation.string(refreshed, "access_token")
        let enrolled = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": accessToken]))
        let factors = try #require(enrolled["mfaInfo"]?.arrayValue)
        try #require(factors.count == 1)
        let enrollmentId = try #require(factors[0]["mfaEnrollmentId"]?.stringValue)
        #expect(factors[0]["totpInfo"]?.objectValue != nil)
        #expect(factors[0]["phoneInfo"] == nil)
        #expect(factors[0]["displayName"] == "Authenticator")
        #expect(try TokenInspection.decode(enrolledToken).payload["firebase"]?["second_factor_identifier"] == .string(enrollmentId))

        // Sign in again: verifyPassword → resolver with a TOTP hint; TOTP has no start step.
        emulator.clock.advance(seconds: 90)
        let first = try Fixture.replay("verifyPassword", on: emulator)
        #expect(first["idToken"] == nil)
        let pending = try Federation.string(first, "mfaPendingCredential")
        let hints = try #require(first["mfaInfo"]?.arrayValue)
        try #require(hints.count == 1)
        #expect(hints[0]["mfaEnrollmentId"] == .string(enrollmentId))
        #expect(hints[0]["totpInfo"]?.objectValue != nil)
        #expect(hints[0]["phoneInfo"] == nil)

        let wrongSignIn = try Fixture.replay(
            "mfaSignInFinalizeTOTP", on: emulator,
            ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "verificationCode": Self.otherCode(than: code(emulator))])
        #expect(wrongSignIn.status == 400)
        #expect(wrongSignIn.errorMessage == "INVALID_CODE")

        // resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:)).
        let signIn = try Fixture.replay(
            "mfaSignInFinalizeTOTP", on: emulator,
            ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "verificationCode": code(emulator)])
        #expect(signIn.status == 200)
        let idToken = try Federation.string(signIn, "idToken")
        let refreshToken = try Federation.string(signIn, "refreshToken")
        let claims = try #require(try TokenInspection.decode(idToken).payload["firebase"])
        #expect(claims["sign_in_provider"] == "password")
        #expect(claims["sign_in_second_factor"] == "totp")
        #expect(claims["second_factor_identifier"] == .string(enrollmentId))
        let again = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        let againToken = try Federation.string(again, "access_token")
        #expect(try TokenInspection.decode(againToken).payload["firebase"]?["sign_in_second_factor"] == "totp")
        let info = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": againToken]))
        #expect(info["localId"] == .string(user.localId))
        #expect(info["mfaInfo"]?.arrayValue?.count == 1)
    }

    // MARK: Unenroll

    @Test func withdrawAnswersTokensAndEndsTheSecondFactor() throws {
        let emulator = try TestEmulator()
        let user = try Self.verifiedPasswordUser(on: emulator)
        let enrollmentId = try Self.enrollPhone(user, on: emulator)
        let mfaToken = try Self.resolvePhone(enrollmentId, on: emulator)

        let unknown = try Fixture.replay("mfaWithdraw", on: emulator, ["idToken": mfaToken, "mfaEnrollmentId": "no-such-factor"])
        #expect(unknown.status == 400)
        #expect(unknown.errorMessage?.hasPrefix("MFA_ENROLLMENT_NOT_FOUND") == true)

        // multiFactor.unenroll(withFactorUID:) → mfaEnrollment:withdraw → refresh → getAccountInfo;
        // an answer without both tokens makes the SDK sign the user out.
        let withdrawn = try Fixture.replay("mfaWithdraw", on: emulator, ["idToken": mfaToken, "mfaEnrollmentId": enrollmentId])
        #expect(withdrawn.status == 200)
        let idToken = try Federation.string(withdrawn, "idToken")
        let refreshToken = try Federation.string(withdrawn, "refreshToken")
        let claims = try #require(try TokenInspection.decode(idToken).payload["firebase"])
        #expect(claims["sign_in_second_factor"] == nil)
        #expect(claims["second_factor_identifier"] == nil)
        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        let accessToken = try Federation.string(refreshed, "access_token")
        let info = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": accessToken]))
        #expect(info["mfaInfo"] == nil || info["mfaInfo"]?.arrayValue?.isEmpty == true)

        // The password alone signs in again.
        let signIn = try Fixture.replay("verifyPassword", on: emulator)
        #expect(signIn["mfaPendingCredential"] == nil)
        #expect(signIn["localId"] == .string(user.localId))
        _ = try Federation.string(signIn, "idToken")
    }

    @Test func theFirstFactorPhoneOfAnMFAUserCannotSignIn() throws {
        let emulator = try TestEmulator()
        let user = try Self.verifiedPasswordUser(on: emulator)
        let sent = try Fixture.replay("sendVerificationCode", on: emulator)
        let code = try #require(try Self.latestMessage(to: Self.phoneNumber, on: emulator)["oobCode"]?.stringValue)
        let linked = try Fixture.replay(
            "linkPhone", on: emulator,
            ["sessionInfo": try Federation.string(sent, "sessionInfo"), "code": code, "idToken": user.idToken])
        #expect(linked["phoneNumber"] == .string(Self.phoneNumber))
        // The link's token has sign_in_provider "phone", which cannot enroll (as in the official
        // emulator); the app signs in with the password again first.
        let linkedToken = try Federation.string(linked, "idToken")
        #expect(try TokenInspection.decode(linkedToken).payload["firebase"]?["sign_in_provider"] == "phone")
        let password = try Fixture.replay("verifyPassword", on: emulator)
        _ = try Self.enrollPhone(
            Email.SignedIn(localId: user.localId, idToken: try Federation.string(password, "idToken")), on: emulator)

        let refused = try Fixture.replay("sendVerificationCode", on: emulator)
        #expect(refused.status == 400)
        #expect(refused.errorMessage?.hasPrefix("UNSUPPORTED_FIRST_FACTOR") == true)
    }

    // MARK: Helpers

    /// apple.user@example.com with a password and a verified email (admin accounts:update).
    static func verifiedPasswordUser(on emulator: TestEmulator) throws -> Email.SignedIn {
        let user = try Email.passwordUser(on: emulator)
        let verified = try emulator.admin("accounts:update", ["localId": .string(user.localId), "emailVerified": true])
        try #require(verified.status == 200, "accounts:update: \(verified.json)")
        return user
    }

    /// multiFactor.getSession → PhoneAuthProvider.verifyPhoneNumber(_:uiDelegate:multiFactorSession:)
    /// → mfaEnrollment:start, the SMS, then enroll(with:displayName:) → mfaEnrollment:finalize →
    /// refresh → getAccountInfo. Returns the new factor's id.
    static func enrollPhone(_ user: Email.SignedIn, on emulator: TestEmulator) throws -> String {
        let start = try Fixture.replay("mfaEnrollmentStartPhone", on: emulator, ["idToken": user.idToken])
        try #require(start.status == 200, "mfaEnrollment:start: \(start.json)")
        let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)  // else internalError
        let message = try Self.latestMessage(to: Self.secondFactorNumber, on: emulator)
        #expect(message["requestType"] == "MFA_ENROLLMENT")
        let code = try #require(message["oobCode"]?.stringValue)

        let finalized = try Fixture.replay(
            "mfaEnrollmentFinalizePhone", on: emulator, ["idToken": user.idToken, "sessionInfo": sessionInfo, "code": code])
        try #require(finalized.status == 200, "mfaEnrollment:finalize: \(finalized.json)")
        let idToken = try Federation.string(finalized, "idToken")  // both needed, else invalidUserToken
        let refreshToken = try Federation.string(finalized, "refreshToken")
        let claims = try #require(try TokenInspection.decode(idToken).payload["firebase"])
        #expect(claims["sign_in_second_factor"] == "phone")
        let enrollmentId = try #require(claims["second_factor_identifier"]?.stringValue)

        let refreshed = try Fixture.replay("refreshToken", on: emulator, ["refreshToken": refreshToken])
        let accessToken = try Federation.string(refreshed, "access_token")
        let info = try Federation.onlyUser(try Fixture.replay("getAccountInfo", on: emulator, ["idToken": accessToken]))
        let factors = try #require(info["mfaInfo"]?.arrayValue)
        try #require(factors.count == 1)
        #expect(factors[0]["mfaEnrollmentId"] == .string(enrollmentId))  // the SDK crashes without it
        #expect(factors[0]["phoneInfo"] == .string(Self.secondFactorNumber))
        #expect(factors[0]["displayName"] == "Work phone")
        #expect(factors[0]["enrolledAt"]?.stringValue?.isEmpty == false)
        return enrollmentId
    }

    /// verifyPassword → mfaSignIn:start → SMS → mfaSignIn:finalize; the second-factor ID token.
    static func resolvePhone(_ enrollmentId: String, on emulator: TestEmulator) throws -> String {
        let first = try Fixture.replay("verifyPassword", on: emulator)
        let pending = try Federation.string(first, "mfaPendingCredential")
        let hint = try #require(first["mfaInfo"]?.arrayValue?.first?["phoneInfo"]?.stringValue)
        let start = try Fixture.replay(
            "mfaSignInStart", on: emulator, ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "phoneHint": hint])
        let sessionInfo = try #require(start["phoneResponseInfo"]?["sessionInfo"]?.stringValue)
        let code = try #require(try Self.latestMessage(to: Self.secondFactorNumber, on: emulator)["oobCode"]?.stringValue)
        let finalized = try Fixture.replay(
            "mfaSignInFinalizePhone", on: emulator, ["mfaPendingCredential": pending, "sessionInfo": sessionInfo, "code": code])
        return try Federation.string(finalized, "idToken")
    }

    /// The newest outbox message to a phone number (`+` encoded in the query).
    static func latestMessage(to number: String, on emulator: TestEmulator) throws -> JSONValue {
        let encoded = number.replacingOccurrences(of: "+", with: "%2B")
        let message = try #require(try Email.messages(on: emulator, "?to=\(encoded)&limit=1").first, "no SMS to \(number)")
        #expect(message["to"] == .string(number))
        return message
    }

    /// A six-digit code that is not `code`.
    static func otherCode(than code: String) -> String { code == "000000" ? "111111" : "000000" }
}
