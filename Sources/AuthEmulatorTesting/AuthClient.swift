import Foundation

/// An answer of a sign-in call (`signUp`, `signInWithPassword`, `signInWithIdp`, …), typed for
/// what tests read most; `json` holds all of it.
public struct SignInResult: Sendable {
    public let json: JSONValue

    public var uid: String { json["localId"]?.stringValue ?? "" }
    public var idToken: String? { json["idToken"]?.stringValue }
    public var refreshToken: String? { json["refreshToken"]?.stringValue }
    public var email: String? { json["email"]?.stringValue }
    public var displayName: String? { json["displayName"]?.stringValue }
    public var providerId: String? { json["providerId"]?.stringValue }
    public var isNewUser: Bool { json["isNewUser"]?.boolValue ?? false }
    /// Set when the account has second factors: finish with `finishSignInWithTOTP` (or SMS).
    public var mfaPendingCredential: String? { json["mfaPendingCredential"]?.stringValue }
    /// The claims of `idToken`, decoded (not verified).
    public var claims: JSONValue? { idToken.flatMap { try? JWT.claims(of: $0) } }
}

/// The client REST API an app's Firebase SDK calls (v1 `accounts:*` with an API key), for the
/// calls tests need around the emulator's own routes. Calls land in the emulator's own project,
/// or in `tenantId` when set. A refusal throws `EmulatorError`.
public struct AuthClient: Sendable {
    public let emulator: Emulator
    public let tenantId: String?
    public var apiKey = "fake-api-key"

    init(emulator: Emulator, tenantId: String?) {
        self.emulator = emulator
        self.tenantId = tenantId
    }

    /// `POST /identitytoolkit.googleapis.com/v1/accounts:<method>?key=…` with the tenant added.
    @discardableResult
    public func call(_ method: String, _ body: [String: JSONValue], version: String = "v1",
                     headers: [String: String] = [:]) async throws -> JSONValue {
        var body = body
        if let tenantId, body["tenantId"] == nil { body["tenantId"] = .string(tenantId) }
        return try await emulator.http.json("POST", "/identitytoolkit.googleapis.com/\(version)/\(method)",
                                            query: [("key", apiKey)], body: .object(body), headers: headers)
    }

    private func signIn(_ method: String, _ body: [String: JSONValue]) async throws -> SignInResult {
        SignInResult(json: try await call("accounts:\(method)", body.merging(["returnSecureToken": true]) { given, _ in given }))
    }

    public func signUp(email: String, password: String, displayName: String? = nil) async throws -> SignInResult {
        var body: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let displayName { body["displayName"] = .string(displayName) }
        return try await signIn("signUp", body)
    }

    public func signInAnonymously() async throws -> SignInResult {
        try await signIn("signUp", [:])
    }

    public func signIn(email: String, password: String) async throws -> SignInResult {
        try await signIn("signInWithPassword", ["email": .string(email), "password": .string(password)])
    }

    /// `signInWithIdp` with a credential as a client SDK sends it: a minted token's `postBody`, or
    /// the headful page's `requestUri` and `sessionId`. `idToken` links the provider to that user.
    public func signInWithIdp(postBody: String, requestUri: String = "http://localhost", sessionId: String? = nil,
                              idToken: String? = nil, returnIdpCredential: Bool = false) async throws -> SignInResult {
        var body: [String: JSONValue] = ["postBody": .string(postBody), "requestUri": .string(requestUri)]
        if let sessionId { body["sessionId"] = .string(sessionId) }
        if let idToken { body["idToken"] = .string(idToken) }
        if returnIdpCredential { body["returnIdpCredential"] = true }
        return try await signIn("signInWithIdp", body)
    }

    /// Signs in with a minted provider token (its `postBody`, plus Apple's first-sign-in name).
    public func signIn(with token: MintedToken, appleName: PersonName? = nil, idToken: String? = nil) async throws -> SignInResult {
        try await signInWithIdp(postBody: token.postBody(appleName: appleName), idToken: idToken)
    }

    /// Signs in with what the provider's sign-in page handed the app (see `FakeProviders.signInThroughPage`).
    public func signIn(with page: PageSignIn, idToken: String? = nil) async throws -> SignInResult {
        try await signInWithIdp(postBody: "providerId=\(page.providerId)", requestUri: page.requestUri,
                                sessionId: page.sessionId, idToken: idToken, returnIdpCredential: true)
    }

    // MARK: Email actions

    /// `sendOobCode`: `EMAIL_SIGNIN` (with `continueUrl`), `PASSWORD_RESET`, `VERIFY_EMAIL` (with `idToken`).
    public func sendOobCode(_ requestType: String, email: String? = nil, idToken: String? = nil,
                            continueUrl: String? = nil, iOSBundleId: String? = nil,
                            canHandleCodeInApp: Bool? = nil) async throws {
        var body: [String: JSONValue] = ["requestType": .string(requestType)]
        if let email { body["email"] = .string(email) }
        if let idToken { body["idToken"] = .string(idToken) }
        if let continueUrl { body["continueUrl"] = .string(continueUrl) }
        if let iOSBundleId { body["iOSBundleId"] = .string(iOSBundleId) }
        if let canHandleCodeInApp { body["canHandleCodeInApp"] = .bool(canHandleCodeInApp) }
        try await call("accounts:sendOobCode", body)
    }

    /// Sends a sign-in link the way an iOS app does (`canHandleCodeInApp`, the bundle id).
    public func sendSignInLink(to email: String, continueUrl: String = "https://app.example.com/finish",
                               iOSBundleId: String = "com.example.app") async throws {
        try await sendOobCode("EMAIL_SIGNIN", email: email, continueUrl: continueUrl, iOSBundleId: iOSBundleId,
                              canHandleCodeInApp: true)
    }

    /// Completes an email link: `signInWithEmailLink` with the code the link carries, as the Apple
    /// SDK's `signIn(withEmail:link:)` (which refuses a link that is not a sign-in link).
    public func signIn(email: String, emailLink link: String, idToken: String? = nil) async throws -> SignInResult {
        guard EmailLink.isSignInLink(link) else {
            throw EmulatorKitError(.invalidArgument, "not a sign-in link (mode=signIn and an oobCode): \(link)")
        }
        var body: [String: JSONValue] = ["email": .string(email), "oobCode": .string(try EmailLink.oobCode(of: link))]
        if let idToken { body["idToken"] = .string(idToken) }
        return try await signIn("signInWithEmailLink", body)
    }

    /// Applies an email action code (verify email, verify and change, recover email): `accounts:update` with `oobCode`.
    @discardableResult
    public func applyActionCode(_ code: String) async throws -> JSONValue {
        try await call("accounts:update", ["oobCode": .string(code)])
    }

    /// Sets a new password with a password-reset code.
    @discardableResult
    public func resetPassword(code: String, newPassword: String) async throws -> JSONValue {
        try await call("accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string(newPassword)])
    }

    // MARK: Account

    /// `accounts:lookup` with the user's own ID token: the user's record.
    public func lookup(idToken: String) async throws -> UserRecord {
        let answer = try await call("accounts:lookup", ["idToken": .string(idToken)])
        guard let user = answer["users"]?[0] else {
            throw EmulatorKitError(.unexpectedAnswer, "accounts:lookup answered no user: \(answer)")
        }
        return UserRecord(json: user)
    }

    /// Deletes the signed-in user (`accounts:delete`), as `User.delete()` does.
    public func deleteAccount(idToken: String) async throws {
        try await call("accounts:delete", ["idToken": .string(idToken)])
    }

    /// Revokes the user's Apple token with the authorization code (`v2 accounts:revokeToken`), as an
    /// app must before deleting an account that signed in with Apple.
    public func revokeAppleToken(authorizationCode: String, idToken: String) async throws {
        try await call("accounts:revokeToken", ["providerId": "apple.com", "tokenType": "CODE",
                                                "token": .string(authorizationCode), "idToken": .string(idToken)],
                       version: "v2")
    }

    // MARK: TOTP second factor

    /// Starts enrolling a TOTP factor: the shared secret and the session to finish with.
    public func startTOTPEnrollment(idToken: String) async throws -> TOTPEnrollment {
        let answer = try await call("accounts/mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": [:]],
                                    version: "v2")
        guard let info = answer["totpSessionInfo"], let secret = info["sharedSecretKey"]?.stringValue,
              let session = info["sessionInfo"]?.stringValue else {
            throw EmulatorKitError(.unexpectedAnswer, "mfaEnrollment:start answered no totpSessionInfo: \(answer)")
        }
        return TOTPEnrollment(sharedSecretKey: secret, sessionInfo: session, json: info)
    }

    /// Finishes the enrollment with a code (see `TOTP.code(secret:at:)` and `EmulatorClock.now()`).
    public func finishTOTPEnrollment(idToken: String, enrollment: TOTPEnrollment, code: String,
                                     displayName: String = "authenticator") async throws -> SignInResult {
        SignInResult(json: try await call("accounts/mfaEnrollment:finalize", [
            "idToken": .string(idToken), "displayName": .string(displayName),
            "totpVerificationInfo": ["sessionInfo": .string(enrollment.sessionInfo), "verificationCode": .string(code)],
        ], version: "v2"))
    }

    /// Finishes a sign-in that answered `mfaPendingCredential` with a TOTP code of the enrolled factor.
    public func finishSignInWithTOTP(pending: SignInResult, enrollmentId: String, code: String) async throws -> SignInResult {
        guard let credential = pending.mfaPendingCredential else {
            throw EmulatorKitError(.invalidArgument, "the sign-in asked for no second factor: \(pending.json)")
        }
        return SignInResult(json: try await call("accounts/mfaSignIn:finalize", [
            "mfaPendingCredential": .string(credential), "mfaEnrollmentId": .string(enrollmentId),
            "totpVerificationInfo": ["verificationCode": .string(code)],
        ], version: "v2"))
    }
}

/// A TOTP enrollment in progress.
public struct TOTPEnrollment: Sendable {
    /// The base32 secret an authenticator app would store.
    public let sharedSecretKey: String
    public let sessionInfo: String
    public let json: JSONValue
}

/// A first and last name, as Sign in with Apple hands them to the app on first authorization.
public struct PersonName: Sendable {
    public var firstName: String
    public var lastName: String

    public init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }
}
