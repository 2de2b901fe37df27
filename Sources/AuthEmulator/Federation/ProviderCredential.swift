import JOSE
import JSON

/// A signInWithIdp credential resolved to claims: read from the merged parameters, verified, and
/// nonce-checked, before any write (a refused credential must change nothing).
struct ProviderCredential: Sendable {
    let providerId: String
    let info: IdPUserInfo
    let proof: VerifiedIdPClaims.Proof
    /// As given, echoed back as `oauthIdToken` / `oauthAccessToken`.
    let idToken: String?
    let accessToken: String?
    /// Apple's name, sent once in `postBody` as `user={"name":{"firstName":…,"lastName":…}}`.
    let appleName: NameParts?

    static func resolve(_ parameters: IdPCredentialParameters, providerId: String, request: OperationRequest) throws -> ProviderCredential {
        let environment = request.environment
        let profile = ProviderProfile(providerId)
        let now = environment.clock.now()
        let verifier = IdPTokenVerifier(
            profile: profile, keyring: environment.keyring, mode: environment.idpTokenMode, now: now,
            allowedAudiences: try environment.providerAudiences.audiences(of: providerId, in: request.scope, environment: environment),
            logger: environment.logger)

        let idToken = parameters["id_token"]
        let accessToken = parameters["access_token"]
        let verified: VerifiedIdPClaims
        if let idToken {
            guard let fromIdToken = try verifier.verify(token: idToken, field: "id_token") else {
                throw AuthError.invalid(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(idToken) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
            }
            try verifier.checkNonce(claims: fromIdToken.claims, rawNonce: parameters["nonce"])
            verified = fromIdToken
        } else if let accessToken {
            verified = try verifier.verify(token: accessToken, field: "access_token")
                ?? resolveOpaque(accessToken, profile: profile, now: now, environment: environment)
        } else {
            throw AuthError.notImplemented("The Auth Emulator only supports sign-in with credentials (id_token required).")
        }

        var samlAssertion: JSONObject?
        if let saml = parameters["SAMLResponse"] { samlAssertion = try Self.samlAssertion(saml) }
        return ProviderCredential(
            providerId: providerId,
            info: try IdPUserInfo(providerId: providerId, claims: verified.claims, samlAssertion: samlAssertion),
            proof: verified.proof, idToken: idToken, accessToken: accessToken,
            appleName: providerId == "apple.com" ? parameters["user"].flatMap(Self.appleName) : nil)
    }

    /// An opaque access token is known only if one of our fake providers issued it (Facebook's
    /// classic token, resolved as the Graph API would).
    private static func resolveOpaque(
        _ token: String, profile: ProviderProfile, now: Instant, environment: AuthEnvironment
    ) throws -> VerifiedIdPClaims {
        let providerId = profile.providerId
        guard let issued = try environment.store.read({ try $0.fakeProviders.accessToken(token) }), issued.providerId == providerId
        else {
            throw IdPTokenVerifier.invalid(
                "The \(providerId) access_token is not one the emulator's fake \(providerId) provider issued; mint one with POST \(ProviderProfile.routePrefix)/\(providerId)/tokens, or send an id_token")
        }
        guard now < issued.expiresAt else {
            throw IdPTokenVerifier.invalid(
                "The \(providerId) access_token expired at \(issued.expiresAt.rfc3339); the emulator clock says \(now.rfc3339)")
        }
        return VerifiedIdPClaims(claims: issued.claims, proof: .issuedAccessToken)
    }

    /// The official emulator's SAML stand-in: `SAMLResponse` is JSON, not XML (reference §3.1 step 7).
    private static func samlAssertion(_ text: String) throws(AuthError) -> JSONObject {
        guard let response = try? JSONValue(parsing: text).objectValue else {
            throw AuthError.invalid("INVALID_IDP_RESPONSE : ((SAMLResponse is not valid JSON.))")
        }
        guard let assertion = response["assertion"]?.objectValue else {
            throw AuthError.invalid("INVALID_IDP_RESPONSE ((Missing assertion in SAMLResponse.))")
        }
        guard let subject = assertion["subject"]?.objectValue else {
            throw AuthError.invalid("INVALID_IDP_RESPONSE ((Missing assertion.subject in SAMLResponse.))")
        }
        guard subject["nameId"] != nil else {
            throw AuthError.invalid("INVALID_IDP_RESPONSE ((Missing assertion.subject.nameId in SAMLResponse.))")
        }
        return assertion
    }

    private static func appleName(_ text: String) -> NameParts? {
        guard let name = try? JSONValue(parsing: text)["name"]?.objectValue else { return nil }
        let first = name["firstName"]?.stringValue
        let last = name["lastName"]?.stringValue
        guard first != nil || last != nil else { return nil }
        return NameParts(given: first, family: last)
    }

    /// The name to show for a new user: the provider's, or Apple's first-authorization one.
    var displayName: String? {
        info.displayName ?? appleName.map { [$0.given, $0.family].compactMap { $0 }.joined(separator: " ") }
    }
}
