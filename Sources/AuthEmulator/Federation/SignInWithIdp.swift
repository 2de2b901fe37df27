import JOSE
import JSON

/// `accounts:signInWithIdp` (v3 `verifyAssertion`, admin and tenant forms), reference §3: sign-in,
/// sign-up, linking and re-authentication with a provider credential our fake providers verify.
enum SignInWithIdp {
    /// Decision errors that `returnIdpCredential` turns into a 200 with `errorMessage` and the IdP
    /// fields, so the SDK can attach the updated credential (reference §3.1 step 12).
    private static let credentialCarryingErrors: Set<String> = ["FEDERATED_USER_ID_ALREADY_LINKED", "EMAIL_EXISTS"]

    /// The answer as an object (the console's sign-in reads its fields).
    static func run(_ request: OperationRequest) throws -> JSONObject {
        switch try signIn(request) {
        case .tokens(let answer): return try answer.encoded(with: request.environment.idTokenSigner)
        case .credentialOnly(let response): return response
        }
    }

    /// The route's answer: the sign-in's fields and tokens written member by member
    /// (`TokenAnswer.written`), where the object form copied the fields to add the three token
    /// members (each looked up in every key before it) and the router then walked the tree.
    /// Measured (bench/instructions): idp-returning 746.5k -> 741.7k, idp-new 811.9k -> 809.8k.
    static func answer(_ request: OperationRequest) throws -> OperationResult {
        switch try signIn(request) {
        case .tokens(let answer): return .encodedJSON(try answer.written(with: request.environment.idTokenSigner))
        case .credentialOnly(let response): return .json(response)
        }
    }

    /// What a sign-in decides: tokens to encode once the transaction is over, or (with
    /// `returnIdpCredential`) a refusal answered as the IdP fields and its `errorMessage`.
    private enum Outcome {
        case tokens(TokenAnswer)
        case credentialOnly(JSONObject)
    }

    private static func signIn(_ request: OperationRequest) throws -> Outcome {
        try request.requireEnabledBeforeFields()
        let body = request.body
        if try body.bool("returnRefreshToken") == true {
            throw AuthError.notImplemented("returnRefreshToken is not implemented yet.")
        }
        if body.has("pendingIdToken") { throw AuthError.notImplemented("pendingIdToken is not implemented yet.") }
        let returnIdpCredential = try body.bool("returnIdpCredential") ?? false
        let autoCreate = try body.bool("autoCreate") ?? true
        let linkingIdToken = try body.nonEmptyString("idToken")

        let parameters = try IdPCredentialParameters(
            requestUri: try body.string("requestUri"), postBody: try body.string("postBody"))
        guard let providerId = parameters["providerId"]?.lowercased() else {
            throw AuthError.invalid(
                "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(parameters.normalizedRequestUri)")
        }
        try checkSession(parameters, sessionId: try body.nonEmptyString("sessionId"))
        try request.environment.providerAudiences.checkEnabled(providerId, in: request.scope, environment: request.environment)
        let credential = try ProviderCredential.resolve(parameters, providerId: providerId, request: request)
        let base = baseResponse(credential, scope: request.scope)

        let newLocalId = request.environment.identifiers.alphanumeric(28)
        do {
            // Blocking functions see the user the decision would write (DESIGN §4.1: draft, call, apply).
            // Linking signs in too: beforeSignIn runs for it, as in the reference.
            let blocking = try BlockingFunctions.run(
                request, [.beforeCreate, .beforeSignIn], signInMethod: providerId,
                inbound: InboundCredentials(
                    rawUserInfo: credential.info.rawUserInfo, idToken: credential.idToken, accessToken: credential.accessToken)
            ) { transaction -> BlockingDraft? in
                var drafted: BlockingDraft?
                _ = try decide(
                    credential, base: base, linkingIdToken: linkingIdToken, autoCreate: autoCreate, newLocalId: newLocalId,
                    blocking: .draft { drafted = $0 }, in: transaction)
                return drafted
            }
            return .tokens(
                try request.write { transaction in
                    try transaction.requireEnabled()
                    return try decide(
                        credential, base: base, linkingIdToken: linkingIdToken, autoCreate: autoCreate, newLocalId: newLocalId,
                        blocking: .apply(blocking), in: transaction)
                })
        } catch let error as AuthError where returnIdpCredential && credentialCarryingErrors.contains(error.message) {
            // Decided inside the transaction, which rolled back: nothing was written.
            var response = base
            response["errorMessage"] = .string(error.message)
            return .credentialOnly(response)
        }
    }

    /// The headful page put the SHA-256 of the app's session id into the link; the app's
    /// verifyAssertion must carry the raw id it belongs to (Apple SDK wire §2.4).
    private static func checkSession(_ parameters: IdPCredentialParameters, sessionId: String?) throws(AuthError) {
        guard let expected = parameters[HeadfulSignInPage.sessionHashParameter], let sessionId else { return }
        guard SHA256.hexDigest(of: sessionId) == expected else {
            throw IdPTokenVerifier.invalid(
                "The sessionId is not the one the sign-in page was opened with (its SHA-256 does not match)")
        }
    }

    /// The IdP fields every answer starts from (reference §3.4).
    private static func baseResponse(_ credential: ProviderCredential, scope: UserScope) -> JSONObject {
        let info = credential.info
        var response: JSONObject = [
            "kind": "identitytoolkit#VerifyAssertionResponse", "context": "", "providerId": .string(info.providerId),
        ]
        let displayName = info.displayName ?? credential.displayName
        response.setIfPresent("displayName", displayName.map { .string($0) })
        response.setIfPresent("fullName", displayName.map { .string($0) })
        response.setIfPresent("firstName", (info.firstName ?? credential.appleName?.given).map { .string($0) })
        response.setIfPresent("lastName", (info.lastName ?? credential.appleName?.family).map { .string($0) })
        response.setIfPresent("screenName", info.screenName.map { .string($0) })
        response.setIfPresent("email", info.reportedEmail.map { .string($0) })
        if info.email != nil { response["emailVerified"] = .bool(info.emailVerified) }
        response.setIfPresent("photoUrl", info.photoUrl.map { .string($0) })
        response["federatedId"] = .string(info.federatedId)
        response.setIfPresent("rawUserInfo", info.rawUserInfo.map { .string($0) })
        response["oauthAccessToken"] = .string(
            credential.accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(info.providerId)")
        response.setIfPresent("oauthIdToken", credential.idToken.map { .string($0) })
        response.setIfPresent("tenantId", scope.tenantId.map { .string($0) })
        return response
    }

    /// Reference §3.3: link to the signed-in user, sign into the linked user or the owner of a
    /// verified email, ask for confirmation for an unverified one, or create a user.
    private static func decide(
        _ credential: ProviderCredential, base: JSONObject, linkingIdToken: String?, autoCreate: Bool, newLocalId: String,
        blocking: BlockingStage, in transaction: AccountsTransaction
    ) throws -> TokenAnswer {
        let info = credential.info
        let scope = transaction.scope
        let users = transaction.users
        let oneAccountPerEmail = !(try transaction.config().allowDuplicateEmails)
        let linked = try users.user(providerId: info.providerId, rawId: info.rawId, in: scope)
        var response = base
        var user: UserRecord

        if let linkingIdToken {
            user = try transaction.authenticate(idToken: linkingIdToken).user
            guard linked == nil else { throw AuthError.invalid("FEDERATED_USER_ID_ALREADY_LINKED") }
            if oneAccountPerEmail, let email = info.email {
                if try users.users(email: email, in: scope).contains(where: { $0.localId != user.localId }) {
                    throw AuthError.invalid("EMAIL_EXISTS")
                }
                if user.email == nil {
                    user.email = email
                    user.emailVerified = info.emailVerified
                }
            }
            if info.emailVerified, info.email != nil, info.email == user.email { user.emailVerified = true }
        } else if let linked {
            user = linked
        } else if oneAccountPerEmail, let email = info.email, var owner = try users.users(email: email, in: scope).first {
            guard info.emailVerified else {
                // "Account exists with different credential": the app must sign in the old way and link.
                response["needConfirmation"] = true
                response["localId"] = .string(owner.localId)
                response["verifiedProvider"] = .array(
                    owner.providerUserInfo.map(\.providerId)
                        .filter { $0 != SignInProvider.password && $0 != SignInProvider.phone }.map { .string($0) })
                return TokenAnswer(fields: response)
            }
            if owner.providers.contains(where: { $0.providerId == info.providerId && $0.rawId != info.rawId }) {
                response["emailRecycled"] = true
            }
            if owner.emailVerified != true {
                // The provider proved the email; whoever set an unverified password on it did not.
                owner.passwordHash = nil
                owner.salt = nil
                owner.phoneNumber = nil
                owner.validSinceSeconds = transaction.now.secondsSinceEpoch
            }
            owner.displayName = info.displayName
            owner.photoUrl = info.photoUrl
            owner.screenName = info.screenName
            owner.emailVerified = true
            user = owner
        } else {
            // Re-authentication (`autoCreate: false`) never creates a user.
            guard autoCreate else { throw AuthError.invalid("USER_NOT_FOUND") }
            user = UserRecord(localId: newLocalId, scope: scope, createdAt: transaction.now)
            user.displayName = credential.displayName
            user.photoUrl = info.photoUrl
            user.screenName = info.screenName
            if oneAccountPerEmail, let email = info.email {
                user.email = email
                user.emailVerified = info.emailVerified
            }
            response["isNewUser"] = true
        }

        // Checked before anything is written: a refused sign-in changes nothing.
        guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
        user.upsertProvider(info.providerLink)
        if try blocking.stops(at: &user, isNew: response["isNewUser"] == true, in: transaction) {
            return TokenAnswer(fields: response)
        }
        response["localId"] = .string(user.localId)
        if user.email == info.email {
            response.setIfPresent("emailVerified", user.emailVerified.map { .bool($0) })
        }
        return try transaction.completeFirstFactor(
            &user, signInProvider: info.providerId, extraClaims: blocking.sessionClaims, signInAttributes: info.signInAttributes, answering: response)
    }
}
