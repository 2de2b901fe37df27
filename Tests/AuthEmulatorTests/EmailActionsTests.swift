import Foundation
import JSON
import Testing

@testable import AuthEmulator

/// Email actions end to end over a real socket: codes, links, the outbox, the relay, and what a
/// refused request leaves behind (everything as it was).
@Suite struct EmailActionsTests {
    static func sendSignInLink(_ emulator: TestEmulator, _ email: String, extra: JSONObject = [:]) throws -> TestEmulator.Reply {
        var body: JSONObject = ["requestType": "EMAIL_SIGNIN", "email": .string(email), "continueUrl": "https://app.example.com/done"]
        body.merge(extra)
        return try emulator.legacy("getOobConfirmationCode", .object(body))
    }

    static func messages(_ emulator: TestEmulator, _ query: String = "") throws -> [JSONValue] {
        try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages\(query)")["messages"]?.arrayValue ?? []
    }

    static func latestCode(_ emulator: TestEmulator, to email: String) throws -> String {
        try #require(try messages(emulator, "?to=\(email)").first?["oobCode"]?.stringValue)
    }

    @Test func aSignInLinkReachesTheOutboxAndSignsInOnce() throws {
        let emulator = try TestEmulator()
        let sent = try Self.sendSignInLink(
            emulator, "Ada@Example.com",
            extra: ["canHandleCodeInApp": true, "iOSBundleId": "com.example.app", "clientType": "CLIENT_TYPE_IOS"])
        #expect(sent.json == ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "ada@example.com"])
        let message = try #require(try Self.messages(emulator).first)
        let code = try #require(message["oobCode"]?.stringValue)
        #expect(code.count == 54)
        #expect(message["to"] == "ada@example.com")
        #expect(message["from"] == .string("noreply@\(TestEmulator.project).firebaseapp.com"))
        #expect(message["delivery"] == ["status": "delivered", "forwardedTo": nil, "reason": nil])
        #expect(message["text"]?.stringValue?.contains("This link expires in 6 hours.") == true)
        for field in ["oobLink", "appLink"] {
            let parsed = AppleSDKEmailFixtureTests.emailLinkQueryItems(message[field]?.stringValue ?? "")
            #expect(parsed["mode"] == "signIn", "\(field)")
            #expect(parsed["oobCode"] == code, "\(field)")
        }
        #expect(message["appLink"]?.stringValue?.hasPrefix("https://\(TestEmulator.project).firebaseapp.com/__/auth/links?link=") == true)

        let wrong = try emulator.legacy("emailLinkSignin", ["email": "eve@example.com", "oobCode": .string(code)])
        #expect(wrong.errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        let signedIn = try emulator.legacy("emailLinkSignin", ["email": "ada@example.com", "oobCode": .string(code)])
        #expect(signedIn["isNewUser"] == true)
        #expect(signedIn["expiresIn"] == "3600")
        #expect(try TokenInspection.decode(signedIn["idToken"]?.stringValue).payload["firebase"]?["sign_in_provider"] == "password")
        let again = try emulator.legacy("emailLinkSignin", ["email": "ada@example.com", "oobCode": .string(code)])
        #expect(again.errorMessage == "INVALID_OOB_CODE")
    }

    @Test func anOwnersLinkIsTheEmulatorsAndIsMailedToNobody() throws {
        let emulator = try TestEmulator()
        let sent = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/tenants/t-1/accounts:sendOobCode?key=the-apps-key",
            json: [
                "requestType": "EMAIL_SIGNIN", "email": "link@example.com", "returnOobLink": true,
                "continueUrl": "https://app.example.com/done", "canHandleCodeInApp": true, "iOSBundleId": "com.example.app",
            ], headers: [("Authorization", "Bearer owner")])
        let code = try #require(sent["oobCode"]?.stringValue)
        let oobLink = try #require(sent["oobLink"]?.stringValue)
        // The official emulator's form and order, whatever ActionCodeSettings said about the app,
        // with the key the request used.
        #expect(oobLink.hasPrefix("http://"))
        #expect(
            oobLink.hasSuffix(
                "/emulator/action?mode=signIn&lang=en&oobCode=\(code)&apiKey=the-apps-key"
                    + "&continueUrl=https%3A%2F%2Fapp.example.com%2Fdone&tenantId=t-1"))
        // Production mails nothing for a generated link: the backend sends it. The code is listed.
        #expect(try Self.messages(emulator).isEmpty)
        let listed = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/tenants/t-1/oobCodes")["oobCodes"]
        #expect(listed?.arrayValue?.map { $0["oobLink"] } == [.string(oobLink)])
        // Without a key (the Admin SDKs send none) the link says the official emulator's.
        let keyless = try emulator.admin("accounts:sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "link@example.com", "returnOobLink": true])
        #expect(keyless["oobLink"]?.stringValue?.hasSuffix("&apiKey=fake-api-key") == true)
        #expect(try Self.messages(emulator).isEmpty)
    }

    @Test func anUnverifiedPasswordIsRemovedAndAVerifiedOneKept() throws {
        let emulator = try TestEmulator()
        let unverified = try emulator.signUp("u@example.com")
        emulator.clock.advance(seconds: 5)
        _ = try Self.sendSignInLink(emulator, "u@example.com")
        let signedIn = try emulator.client("signInWithEmailLink", ["email": "u@example.com", "oobCode": .string(try Self.latestCode(emulator, to: "u@example.com"))])
        #expect(signedIn["localId"] == unverified["localId"])
        #expect(signedIn["isNewUser"] == false)
        #expect(try emulator.client("signInWithPassword", ["email": "u@example.com", "password": "secret123"]).status == 400)
        #expect(try emulator.refresh(unverified["refreshToken"]?.stringValue ?? "").errorMessage == "TOKEN_EXPIRED")

        let verified = try emulator.signUp("v@example.com")
        _ = try emulator.admin("accounts:update", ["localId": verified["localId"]!, "emailVerified": true])
        _ = try Self.sendSignInLink(emulator, "v@example.com")
        _ = try emulator.client("signInWithEmailLink", ["email": "v@example.com", "oobCode": .string(try Self.latestCode(emulator, to: "v@example.com"))])
        #expect(try emulator.client("signInWithPassword", ["email": "v@example.com", "password": "secret123"]).status == 200)
    }

    @Test func codesExpireByTheEmulatorClockAndARefusedSignInKeepsTheCode() throws {
        let emulator = try TestEmulator()
        _ = try emulator.signUp("d@example.com")
        let user = try emulator.admin("accounts:lookup", ["email": ["d@example.com"]])["users"]?.arrayValue?.first
        _ = try emulator.admin("accounts:update", ["localId": user?["localId"] ?? "", "disableUser": true])
        _ = try Self.sendSignInLink(emulator, "d@example.com")
        let code = try Self.latestCode(emulator, to: "d@example.com")
        #expect(try emulator.client("signInWithEmailLink", ["email": "d@example.com", "oobCode": .string(code)]).errorMessage == "USER_DISABLED")
        // Refused, so still there.
        let listed = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/oobCodes")["oobCodes"]?.arrayValue
        #expect(listed?.map { $0["oobCode"] } == [.string(code)])
        emulator.clock.advance(seconds: 6 * 3600 + 1)
        #expect(try emulator.client("signInWithEmailLink", ["email": "d@example.com", "oobCode": .string(code)]).errorMessage == "EXPIRED_OOB_CODE")
    }

    @Test func relayMailIsRelayedOrBouncedWithTheReason() throws {
        let emulator = try TestEmulator()
        let minted = try emulator.send("POST", "/emulator/v1/idp/apple.com/tokens", json: ["email": "real@example.com", "hideEmail": true])
        let relay = try #require(minted["email"]?.stringValue)
        func deliveryOfSignInLink(to address: String) throws -> JSONValue? {
            _ = try Self.sendSignInLink(emulator, address)
            return try Self.messages(emulator, "?to=\(address)&limit=1").first?["delivery"]
        }
        #expect(try deliveryOfSignInLink(to: relay) == ["status": "relayed", "forwardedTo": "real@example.com", "reason": nil])
        #expect(try deliveryOfSignInLink(to: "nobody@private.icloud.com")?["reason"]?.stringValue?.hasPrefix("Unknown relay address:") == true)
        _ = try emulator.send("PATCH", "/emulator/v1/idp/apple.com/relay/\(relay)", json: ["forwarding": false])
        #expect(try deliveryOfSignInLink(to: relay)?["reason"]?.stringValue?.hasPrefix("Forwarding off:") == true)
        let senders = try emulator.send(
            "PATCH", "/emulator/v1/projects/\(TestEmulator.project)/privateRelay", json: ["registeredSenders": ["Team@Example.com"]])
        #expect(senders.json == ["registeredSenders": ["team@example.com"], "spfFailingDomains": [], "dailyLimit": 100])
        #expect(try deliveryOfSignInLink(to: relay)?["reason"]?.stringValue?.hasPrefix("Sender not registered:") == true)
    }

    @Test func aWaitingListAnswersWhenAMatchingMessageCommits() throws {
        let emulator = try TestEmulator()
        let finished = Locked<[JSONValue]?>(nil)
        let waiter = Thread {
            let waited = try? Self.messages(emulator, "?to=late@example.com&waitSeconds=20")
            finished.withLock { $0 = waited }
        }
        waiter.start()
        // Another recipient's message does not wake it.
        for _ in 0..<200 where emulator.emulator.environment.outboxWaiters.count == 0 { usleep(5000) }
        _ = try Self.sendSignInLink(emulator, "other@example.com")
        usleep(50_000)
        #expect(finished.withLock { $0 } == nil)
        _ = try Self.sendSignInLink(emulator, "late@example.com")
        for _ in 0..<400 where finished.withLock({ $0 }) == nil { usleep(5000) }
        let messages = try #require(finished.withLock { $0 })
        #expect(messages.map { $0["to"] } == ["late@example.com"])
        #expect(emulator.emulator.environment.outboxWaiters.count == 0)
        // `since` and `latest` read the same list.
        let all = try Self.messages(emulator)
        let newest = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest")
        #expect(newest.json == all.first)
        #expect(try Self.messages(emulator, "?since=\(all.last?["id"]?.stringValue ?? "")").count == all.count - 1)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages/latest?to=none@example.com").status == 404)
        #expect(try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages?waitSeconds=61").status == 400)
        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(TestEmulator.project)/messages").status == 200)
        #expect(try Self.messages(emulator).isEmpty)
    }

    @Test func resetPasswordInspectsAndApplies() throws {
        let emulator = try TestEmulator()
        let user = try emulator.signUp("r@example.com")
        emulator.clock.advance(seconds: 5)
        _ = try emulator.legacy("getOobConfirmationCode", ["requestType": 1, "email": "r@example.com"])
        let code = try Self.latestCode(emulator, to: "r@example.com")
        let inspected = try emulator.legacy("resetPassword", ["oobCode": .string(code)])
        #expect(inspected.json == ["kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET", "email": "r@example.com"])
        #expect(try emulator.legacy("resetPassword", ["oobCode": .string(code), "newPassword": "short"]).errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(try emulator.legacy("resetPassword", ["oobCode": .string(code), "newPassword": "brand-new"]).status == 200)
        #expect(try emulator.client("signInWithPassword", ["email": "r@example.com", "password": "brand-new"]).status == 200)
        #expect(try emulator.client("lookup", ["idToken": user["idToken"]!]).errorMessage == "TOKEN_EXPIRED")
        #expect(try emulator.legacy("resetPassword", ["oobCode": .string(code)]).errorMessage == "INVALID_OOB_CODE")
        #expect(try emulator.legacy("getOobConfirmationCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]).errorMessage == "EMAIL_NOT_FOUND")
    }

    @Test func changingAnEmailSendsARecoveryThatTakesItBack() throws {
        let emulator = try TestEmulator()
        let user = try emulator.signUp("old@example.com")
        _ = try emulator.client("update", ["idToken": user["idToken"]!, "email": "new@example.com"])
        let notice = try #require(try Self.messages(emulator, "?to=old@example.com").first)
        #expect(notice["requestType"] == "RECOVER_EMAIL")
        #expect(notice["subject"] == .string("Your sign-in email was changed for project-\(TestEmulator.project)"))
        let applied = try emulator.legacy("setAccountInfo", ["oobCode": notice["oobCode"]!])
        #expect(applied["email"] == "old@example.com")
        let page = try emulator.send("GET", "/emulator/action?mode=recoverEmail&oobCode=\(notice["oobCode"]?.stringValue ?? "")&apiKey=k")
        #expect(page.status == 400)
        #expect(page["authEmulator"]?["error"] == "Your request to revert your email has expired or the link has already been used.")
    }
}
