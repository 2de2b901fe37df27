import JSON

/// What signInWithIdp reads from a provider's claims (reference §3.2): the profile and the base
/// of its response.
struct IdPUserInfo: Sendable {
    let providerId: String
    let rawId: String
    /// Lower case, as accounts store and match it.
    let email: String?
    /// The email as the answer's `email` shows it: a SAML `nameId` keeps its case, as the reference's does.
    let reportedEmail: String?
    let emailVerified: Bool
    let displayName: String?
    let photoUrl: String?
    let screenName: String?
    let firstName: String?
    let lastName: String?
    let federatedId: String
    let rawUserInfo: String?
    /// A SAML assertion's `attributeStatements`: the first ID token's `firebase.sign_in_attributes`.
    var signInAttributes: JSONValue?

    init(providerId: String, claims: JSONObject, samlAssertion: JSONObject?) throws(AuthError) {
        guard let sub = claims["sub"] else {
            throw AuthError.invalid(
                "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing \"sub\" field. This field is required and must be a unique identifier.))")
        }
        guard let rawId = sub.stringValue else {
            throw AuthError.invalid("INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
        }
        self.providerId = providerId
        self.rawId = rawId
        let claimedEmail = claims["email"]?.stringValue.map(EmailAddress.canonical)
        displayName = claims["name"]?.stringValue
        photoUrl = claims["picture"]?.stringValue
        screenName = claims["screen_name"]?.stringValue

        if providerId == "google.com" {
            firstName = claims["given_name"]?.stringValue
            lastName = claims["family_name"]?.stringValue
            federatedId = "https://accounts.google.com/\(rawId)"
            email = claimedEmail
            reportedEmail = claimedEmail
            emailVerified = Self.isTrue(claims["email_verified"])
            var info = JSONObject()
            var scopes = "openid https://www.googleapis.com/auth/userinfo.profile"
            if claimedEmail != nil { scopes += " https://www.googleapis.com/auth/userinfo.email" }
            info["granted_scopes"] = .string(scopes)
            info["id"] = .string(rawId)
            info.setIfPresent("name", claims["name"])
            info.setIfPresent("given_name", claims["given_name"])
            info.setIfPresent("family_name", claims["family_name"])
            info.setIfPresent("verified_email", claims["email_verified"].map { .bool(Self.isTrue($0)) })
            info["locale"] = "en"
            info.setIfPresent("email", claims["email"])
            info.setIfPresent("picture", claims["picture"])
            rawUserInfo = info.compactString
        } else if providerId.hasPrefix("saml.") {
            firstName = nil
            lastName = nil
            federatedId = rawId
            let nameId = samlAssertion?["subject"]?["nameId"]?.stringValue.flatMap { EmailAddress.isValid($0) ? $0 : nil }
            email = nameId.map(EmailAddress.canonical) ?? claimedEmail
            reportedEmail = nameId ?? claimedEmail
            emailVerified = true
            rawUserInfo = samlAssertion?["attributeStatements"].map(\.compactString)
            signInAttributes = samlAssertion?["attributeStatements"]
        } else {
            firstName = nil
            lastName = nil
            federatedId = rawId
            email = claimedEmail
            reportedEmail = claimedEmail
            emailVerified = Self.isTrue(claims["email_verified"])
            rawUserInfo = claims.compactString
        }
    }

    /// Claims are read faithfully: Apple's `"false"` is false (the official emulator reads it as true).
    static func isTrue(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .string(let text)?: text.lowercased() == "true"
        default: false
        }
    }

    /// The link this identity becomes on a user (reference §3.1 step 14).
    var providerLink: ProviderUserInfo {
        ProviderUserInfo(
            providerId: providerId, rawId: rawId, federatedId: rawId, email: email, displayName: displayName,
            photoUrl: photoUrl, screenName: screenName)
    }
}
