@testable import AuthEmulator
import Foundation
import HTTPServer
import HTTPTestSupport
import JSON
import Testing

/// A blocking function on 127.0.0.1: records each event and answers what the test says.
private final class FakeFunction: HTTPHandler, @unchecked Sendable {
    // @unchecked: `events` and `answer` are only touched under `lock`.
    private let lock = NSLock()
    private var events: [JSONObject] = []
    private let answer: @Sendable (JSONObject) -> (Int, String)

    init(answer: @escaping @Sendable (JSONObject) -> (Int, String)) { self.answer = answer }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let jwt = (try? JSONValue(parsing: request.body))?["data"]?["jwt"]?.stringValue ?? ""
        let payload = (try? TokenInspection.decode(jwt).payload) ?? JSONObject()
        lock.lock()
        events.append(payload)
        lock.unlock()
        let (status, body) = answer(payload)
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    func respondToOversizedBody(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }

    var received: [JSONObject] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}

@Suite struct BlockingFunctionTests {
    static let config = "/identitytoolkit.googleapis.com/v2/projects/\(TestEmulator.project)/config"

    private func configure(_ emulator: TestEmulator, _ triggers: [String: String]) throws {
        var map = JSONObject()
        for (event, uri) in triggers { map[event] = ["functionUri": .string(uri)] }
        let reply = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=blockingFunctions", json: ["blockingFunctions": ["triggers": .object(map)]],
            headers: [("Authorization", "Bearer owner")])
        #expect(reply.status == 200)
    }

    private func start(_ function: FakeFunction) throws -> HTTPServer {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: function)
        try server.start()
        return server
    }

    @Test func beforeCreateAndBeforeSignInSeeTheUserAndTheirAnswersApply() throws {
        let function = FakeFunction { event in
            if event["event_type"] == "beforeCreate" {
                return (200, #"{"userRecord":{"updateMask":"displayName,customClaims","displayName":"Named","customClaims":{"role":"admin"}}}"#)
            }
            return (200, #"{"userRecord":{"updateMask":"sessionClaims","sessionClaims":{"session":"yes"}}}"#)
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let base = "http://127.0.0.1:\(server.port)"
        try configure(emulator, ["beforeCreate": "\(base)/beforeCreate", "beforeSignIn": "\(base)/beforeSignIn"])

        let signUp = try emulator.signUp("b@example.com")
        #expect(signUp.status == 200)
        #expect(signUp["displayName"] == "Named")
        let claims = try TokenInspection.decode(signUp["idToken"]?.stringValue).payload
        #expect(claims["role"] == "admin")
        #expect(claims["session"] == "yes")
        let events = function.received
        #expect(events.map { $0["event_type"] } == ["beforeCreate", "beforeSignIn"])
        #expect(events.first?["sign_in_method"] == "password")
        #expect(events.first?["user_record"]?["email"] == "b@example.com")
        #expect(events.first?["aud"] == .string("\(base)/beforeCreate"))
        #expect(events.last?["user_record"]?["display_name"] == "Named")

        let signIn = try emulator.client("signInWithPassword", ["email": "b@example.com", "password": "secret123"])
        #expect(try TokenInspection.decode(signIn["idToken"]?.stringValue).payload["session"] == "yes")
        #expect(function.received.count == 3)
        #expect(function.received.last?["user_record"]?["custom_claims"] == ["role": "admin"])
        #expect(function.received.last?["user_record"]?["metadata"]?["creation_time"] == .int(TestEmulator.start.millisecondsSinceEpoch))

        // A user with a second factor gets mfaPendingCredential, and beforeSignIn is not called yet.
        _ = try emulator.admin(
            "accounts", ["email": "mfa@example.com", "password": "secret123", "emailVerified": true, "mfaInfo": [["phoneInfo": "+15555550100"]]])
        let pending = try emulator.client("signInWithPassword", ["email": "mfa@example.com", "password": "secret123"])
        #expect(pending["mfaPendingCredential"] != nil)
        #expect(function.received.count == 3)

        // Admin creation does not call the functions.
        _ = try emulator.admin("accounts", ["email": "admin-made@example.com", "password": "secret123"])
        #expect(function.received.count == 3)
    }

    @Test func gameCenterSignInRunsBothFunctionsAndARefusalWritesNoPlayer() throws {
        let function = FakeFunction { event in
            if event["user_record"]?["display_name"] == "Blocked" {
                return (403, #"{"error":{"status":"PERMISSION_DENIED","message":"not this player"}}"#)
            }
            return (200, #"{"userRecord":{"updateMask":"customClaims","customClaims":{"tier":"gold"}}}"#)
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let base = "http://127.0.0.1:\(server.port)"
        try configure(emulator, ["beforeCreate": "\(base)/beforeCreate", "beforeSignIn": "\(base)/beforeSignIn"])

        let minted = try GameCenterTests.mint(emulator, ["teamPlayerId": "T:_blocking", "displayName": "Ada"])
        let signIn = try GameCenterTests.signIn(emulator, try GameCenterTests.requestBody(minted))
        #expect(signIn.status == 200, "\(signIn.json)")
        #expect(try TokenInspection.decode(signIn["idToken"]?.stringValue).payload["tier"] == "gold")
        #expect(function.received.map { $0["event_type"] } == ["beforeCreate", "beforeSignIn"])
        #expect(function.received.first?["sign_in_method"] == "gc.apple.com")
        #expect(function.received.first?["user_record"]?["provider_data"]?.arrayValue?.first?["provider_id"] == "gc.apple.com")

        let blocked = try GameCenterTests.mint(emulator, ["teamPlayerId": "T:_blocked", "displayName": "Blocked"])
        let refused = try GameCenterTests.signIn(emulator, try GameCenterTests.requestBody(blocked))
        #expect(refused.errorMessage?.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE") == true)
        #expect(try GameCenterTests.userCount(emulator) == 1)
    }

    @Test func aRefusalIsTheFunctionsErrorAndWritesNothing() throws {
        let function = FakeFunction { _ in (403, #"{"error":{"status":"PERMISSION_DENIED","message":"no thanks"}}"#) }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let uri = "http://127.0.0.1:\(server.port)/beforeCreate"
        try configure(emulator, ["beforeCreate": uri])
        let signUp = try emulator.signUp("c@example.com")
        #expect(signUp.status == 400)
        #expect(signUp.errorMessage == #"BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \#(uri) returned HTTP error 403: {"error":{"status":"PERMISSION_DENIED","message":"no thanks"}}))"#)
        let lookup = try emulator.admin("accounts:lookup", ["email": ["c@example.com"]])
        #expect(lookup["users"] == nil)
    }

    @Test func beforeSendEmailAndBeforeSendSmsSeeTheMessageAndMayRefuseIt() throws {
        let function = FakeFunction { event in
            let refused = event["email"]?.stringValue == "no@example.com" || event["phone_number"]?.stringValue == "+15555550999"
            return refused ? (400, #"{"error":{"message":"not today"}}"#) : (200, "{}")
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let base = "http://127.0.0.1:\(server.port)"
        try configure(emulator, ["beforeSendEmail": "\(base)/email", "beforeSendSms": "\(base)/sms"])
        func sendLink(_ email: String) throws -> TestEmulator.Reply {
            try emulator.client("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": .string(email)])
        }
        #expect(try sendLink("yes@example.com").status == 200)
        let refused = try sendLink("no@example.com")
        #expect(refused.errorMessage?.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \(base)/email returned HTTP error 400") == true)
        #expect(try emulator.client("sendVerificationCode", ["phoneNumber": "+15555550100"]).status == 200)
        #expect(try emulator.client("sendVerificationCode", ["phoneNumber": "+15555550999"]).status == 400)
        // Refused messages were never stored.
        let messages = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/messages")["messages"]?.arrayValue
        #expect(messages?.compactMap { $0["to"]?.stringValue }.sorted() == ["+15555550100", "yes@example.com"])
        let events = function.received
        #expect(events.map { $0["event_type"] } == ["beforeSendEmail", "beforeSendEmail", "beforeSendSms", "beforeSendSms"])
        #expect(events.first?["email_type"] == "EMAIL_SIGN_IN")
        #expect(events.last?["sms_type"] == "SIGN_IN_OR_SIGN_UP")
        // An admin's link (Bearer owner) is no client request: no function runs.
        _ = try emulator.admin("accounts:sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "no@example.com", "returnOobLink": true])
        #expect(function.received.count == 4)
    }

    @Test func phoneSignInRunsTheFunctionsAndARefusalKeepsTheCode() throws {
        let refuse = Locked(true)
        let function = FakeFunction { _ in
            refuse.withLock { $0 } ? (400, #"{"error":{"message":"wait"}}"#) : (200, #"{"userRecord":{"updateMask":"displayName","displayName":"Phone Person"}}"#)
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        try configure(emulator, ["beforeCreate": "http://127.0.0.1:\(server.port)/beforeCreate"])
        let sent = try emulator.client("sendVerificationCode", ["phoneNumber": "+15555550123"])
        let codes = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/verificationCodes")
        let code = try #require(codes["verificationCodes"]?.arrayValue?.first?["code"])
        let body: JSONValue = ["sessionInfo": sent["sessionInfo"]!, "code": code]
        #expect(try emulator.client("signInWithPhoneNumber", body).errorMessage?.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE") == true)
        refuse.withLock { $0 = false }
        let signedIn = try emulator.client("signInWithPhoneNumber", body)  // the code is still good
        #expect(signedIn["isNewUser"] == true)
        let user = try emulator.admin("accounts:lookup", ["localId": [signedIn["localId"]!]])["users"]?.arrayValue?.first
        #expect(user?["displayName"] == "Phone Person")
        #expect(function.received.first?["sign_in_method"] == "phone")
        #expect(function.received.first?["user_record"]?["phone_number"] == "+15555550123")
    }

    @Test func beforeSignInRunsOnceTheSecondFactorIsProven() throws {
        let function = FakeFunction { _ in (200, #"{"userRecord":{"updateMask":"sessionClaims","sessionClaims":{"mfa_checked":true}}}"#) }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let user = try emulator.signUp("two@example.com")
        _ = try emulator.admin("accounts:update", [
            "localId": user["localId"]!, "mfa": ["enrollments": [["mfaEnrollmentId": "e1", "phoneInfo": "+15555550177"]]],
        ])
        try configure(emulator, ["beforeSignIn": "http://127.0.0.1:\(server.port)/beforeSignIn"])
        let first = try emulator.client("signInWithPassword", ["email": "two@example.com", "password": "secret123"])
        let pending = try #require(first["mfaPendingCredential"])
        #expect(function.received.isEmpty)  // not while the second factor is pending
        let v2 = "/identitytoolkit.googleapis.com/v2/accounts"
        let started = try emulator.send("POST", "\(v2)/mfaSignIn:start?key=k", json: ["mfaPendingCredential": pending, "mfaEnrollmentId": "e1"])
        let codes = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/verificationCodes")
        let code = try #require(codes["verificationCodes"]?.arrayValue?.first?["code"])
        let done = try emulator.send(
            "POST", "\(v2)/mfaSignIn:finalize?key=k",
            json: [
                "mfaPendingCredential": pending,
                "phoneVerificationInfo": ["sessionInfo": started["phoneResponseInfo"]?["sessionInfo"] ?? nil, "code": code],
            ])
        let claims = try TokenInspection.decode(done["idToken"]?.stringValue).payload
        #expect(claims["mfa_checked"] == true)
        #expect(claims["firebase"]?["sign_in_second_factor"] == "phone")
        #expect(function.received.first?["sign_in_method"] == "password")
    }

    @Test func aFunctionThatDisablesTheUserRefusesTheSignIn() throws {
        let function = FakeFunction { _ in (200, #"{"userRecord":{"updateMask":"disabled","disabled":true}}"#) }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        _ = try emulator.signUp("d@example.com")
        try configure(emulator, ["beforeSignIn": "http://127.0.0.1:\(server.port)/beforeSignIn"])
        let signIn = try emulator.client("signInWithPassword", ["email": "d@example.com", "password": "secret123"])
        #expect(signIn.errorMessage == "USER_DISABLED")
        let user = try emulator.admin("accounts:lookup", ["email": ["d@example.com"]])["users"]?.arrayValue?.first
        #expect(user?["disabled"] == nil)
    }

    @Test func aFunctionThatIsDownGivesAClearError() throws {
        let server = try start(FakeFunction { _ in (200, "{}") })
        let port = server.port
        server.shutdown()
        let emulator = try TestEmulator()
        let uri = "http://127.0.0.1:\(port)/beforeCreate"
        try configure(emulator, ["beforeCreate": uri])
        let signUp = try emulator.signUp("e@example.com")
        #expect(signUp.status == 400)
        #expect(signUp.errorMessage == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Failed to make request to \(uri).))")
    }

    /// Takes the deadline (7 s) to run: the function answers only once the sign-up has been
    /// answered (or after a minute, a bound only a bug reaches), so the deadline is what ends it.
    @Test func aSlowFunctionFailsAtTheDeadline() throws {
        let seconds = BlockingFunctionClient.deadlineSeconds
        let answered = DispatchSemaphore(value: 0)
        let server = try start(FakeFunction { _ in
            _ = answered.wait(timeout: .now() + 60)
            return (200, "{}")
        })
        defer {
            answered.signal()
            server.shutdown()
        }
        let emulator = try TestEmulator()
        let uri = "http://127.0.0.1:\(server.port)/slow"
        try configure(emulator, ["beforeCreate": uri])
        let started = Date()
        // The test client's usual read timeout is shorter than the function's minute.
        let connection = try RawHTTPConnection(port: emulator.emulator.port, timeoutSeconds: 50)
        let body: JSONValue = ["email": "slow@example.com", "password": "secret123"]
        let response = try connection.exchange(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", headers: [("Content-Type", "application/json")],
            body: body.encoded())
        let signUp = try JSONValue(parsing: response.body)
        #expect(response.status == 400)
        #expect(signUp["error"]?["message"]?.stringValue == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Deadline exceeded making request to \(uri).))")
        #expect(Date().timeIntervalSince(started) >= Double(seconds) - 0.5)
        #expect(try emulator.admin("accounts:lookup", ["email": ["slow@example.com"]])["users"] == nil)
    }

    @Test func anAnswerWithoutAnUpdateMaskOrJSONIsRefused() throws {
        let function = FakeFunction { event in
            event["event_type"] == "beforeCreate" ? (200, #"{"userRecord":{"displayName":"x"}}"#) : (200, "not json")
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        try configure(emulator, ["beforeCreate": "http://127.0.0.1:\(server.port)/c"])
        #expect(try emulator.signUp("f@example.com").errorMessage
            == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response UserRecord is missing updateMask.))")
        try configure(emulator, ["beforeSignIn": "http://127.0.0.1:\(server.port)/s"])
        #expect(try emulator.signUp("g@example.com").errorMessage
            == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response body is not valid JSON.))")
    }

    @Test func idpSignInCallsBeforeCreateOnlyForANewUser() throws {
        let function = FakeFunction { event in
            event["event_type"] == "beforeCreate"
                ? (200, #"{"userRecord":{"updateMask":"customClaims","customClaims":{"via":"idp"}}}"#) : (200, "{}")
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        let base = "http://127.0.0.1:\(server.port)"
        try configure(emulator, ["beforeCreate": "\(base)/c", "beforeSignIn": "\(base)/s"])
        _ = try emulator.send(
            "PATCH", "\(Self.config)?updateMask=blockingFunctions.forwardInboundCredentials",
            json: ["blockingFunctions": ["forwardInboundCredentials": ["idToken": true]]], headers: [("Authorization", "Bearer owner")])
        let postBody = try #require(FederationTests.mint(emulator, "google.com", ["email": "idp@example.com"])["postBody"]?.stringValue)
        let first = try FederationTests.signIn(emulator, postBody: postBody)
        #expect(first["isNewUser"] == true)
        #expect(try TokenInspection.decode(first["idToken"]?.stringValue).payload["via"] == "idp")
        #expect(function.received.map { $0["event_type"] } == ["beforeCreate", "beforeSignIn"])
        #expect(function.received.first?["sign_in_method"] == "google.com")
        #expect(function.received.first?["oauth_id_token"]?.stringValue?.isEmpty == false)
        #expect(function.received.first?["oauth_access_token"] == nil)
        #expect(function.received.first?["raw_user_info"]?.stringValue?.contains("idp@example.com") == true)
        let again = try FederationTests.signIn(emulator, postBody: postBody)
        #expect(again["localId"] == first["localId"])
        #expect(function.received.map { $0["event_type"] } == ["beforeCreate", "beforeSignIn", "beforeSignIn"])
    }

    @Test func emailLinkSignInRunsTheFunctionsAndARefusalKeepsTheCode() throws {
        let allow = Locked(false)
        let function = FakeFunction { _ in
            allow.withLock { $0 }
                ? (200, #"{"userRecord":{"updateMask":"customClaims","customClaims":{"via":"link"}}}"#) : (500, "down")
        }
        let server = try start(function)
        defer { server.shutdown() }
        let emulator = try TestEmulator()
        try configure(emulator, ["beforeCreate": "http://127.0.0.1:\(server.port)/c"])
        _ = try emulator.client("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "link@example.com", "continueUrl": "http://x.test/"])
        let codes = try emulator.send("GET", "/emulator/v1/projects/\(TestEmulator.project)/oobCodes")
        let code = try #require(codes["oobCodes"]?.arrayValue?.last?["oobCode"]?.stringValue)
        let refused = try emulator.client("signInWithEmailLink", ["email": "link@example.com", "oobCode": .string(code)])
        #expect(refused.errorMessage?.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to") == true)
        allow.withLock { $0 = true }
        let signIn = try emulator.client("signInWithEmailLink", ["email": "link@example.com", "oobCode": .string(code)])
        #expect(signIn["isNewUser"] == true)
        #expect(try TokenInspection.decode(signIn["idToken"]?.stringValue).payload["via"] == "link")
        #expect(function.received.last?["sign_in_method"] == "emailLink")
    }
}
