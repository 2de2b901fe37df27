/// The fields Google's routes read (reference: the official emulator's API description). These
/// routes accept other fields too, as the official emulator does; the declarations say what the
/// emulator reads, and debug builds check that it reads nothing else (`UndeclaredReads`).
enum FirebaseFields {
    private static let mfaEnrollment: [Field] = [
        .string("mfaEnrollmentId"), .string("displayName"), .string("phoneInfo"), .string("unobfuscatedPhoneInfo"),
        .string("enrolledAt"), .map("totpInfo"),
    ]

    static let byOperation: [String: OperationFields] = [
        "identitytoolkit.accounts.createAuthUri": OperationFields(body: [.string("sessionId"), .string("providerId"), .string("identifier"), .string("continueUri")]),
        "identitytoolkit.accounts.delete": OperationFields(body: [.string("idToken"), .string("localId")]),
        "identitytoolkit.accounts.lookup": OperationFields(body: [.string("idToken"), .strings("localId"), .strings("email"), .strings("initialEmail"), .strings("phoneNumber"), .objects("federatedUserId", [])]),
        "identitytoolkit.accounts.mfaEnrollment.finalize": OperationFields(body: [.object("phoneVerificationInfo", [Field("androidVerificationProof", .any), .string("sessionInfo"), .string("code")]), .string("idToken"), .string("displayName"), .object("totpVerificationInfo", [.string("sessionInfo"), .string("verificationCode")])]),
        "identitytoolkit.accounts.mfaEnrollment.start": OperationFields(body: [.string("idToken"), .object("phoneEnrollmentInfo", [.string("phoneNumber")]), .map("totpEnrollmentInfo")]),
        "identitytoolkit.accounts.mfaEnrollment.withdraw": OperationFields(body: [.string("idToken"), .string("mfaEnrollmentId")]),
        "identitytoolkit.accounts.mfaSignIn.finalize": OperationFields(body: [.object("phoneVerificationInfo", [Field("androidVerificationProof", .any), .string("sessionInfo"), .string("code")]), .string("mfaPendingCredential"), .object("totpVerificationInfo", [.string("verificationCode")]), .string("mfaEnrollmentId")]),
        "identitytoolkit.accounts.mfaSignIn.start": OperationFields(body: [.string("mfaPendingCredential"), .string("mfaEnrollmentId")]),
        "identitytoolkit.accounts.resetPassword": OperationFields(body: [.string("oobCode"), .string("newPassword")]),
        "identitytoolkit.accounts.revokeToken": OperationFields(body: [.string("idToken"), .string("providerId"), .string("tokenType"), .string("token")]),
        "identitytoolkit.accounts.sendOobCode": OperationFields(body: [.string("requestType"), .boolean("returnOobLink"), .string("continueUrl"), .boolean("canHandleCodeInApp"), .string("iOSBundleId"), .string("iosBundleId"), .string("androidPackageName"), .boolean("androidInstallApp"), .string("androidMinimumVersion"), .string("linkDomain"), .string("dynamicLinkDomain"), .string("email"), .string("newEmail"), .string("idToken")], query: [.string("key")]),
        "identitytoolkit.accounts.sendVerificationCode": OperationFields(body: [.string("phoneNumber")]),
        "identitytoolkit.accounts.signInWithCustomToken": OperationFields(body: [.string("token")]),
        "identitytoolkit.accounts.signInWithEmailLink": OperationFields(body: [.string("idToken"), .string("email"), .string("oobCode")]),
        "identitytoolkit.accounts.signInWithIdp": OperationFields(body: [.boolean("returnRefreshToken"), .string("pendingIdToken"), .boolean("returnIdpCredential"), .boolean("autoCreate"), .string("idToken"), .string("requestUri"), .string("postBody"), .string("sessionId")]),
        "identitytoolkit.accounts.signInWithPassword": OperationFields(body: [.string("email"), .string("password"), .string("captchaResponse"), .string("captchaChallenge"), .string("idToken"), .string("pendingIdToken")]),
        "identitytoolkit.accounts.signInWithPhoneNumber": OperationFields(body: [.string("idToken"), .string("temporaryProof"), .string("operation"), .string("sessionInfo"), .string("code"), .string("phoneNumber")]),
        "identitytoolkit.accounts.signUp": OperationFields(body: [.string("idToken"), .string("localId"), .string("email"), .string("password"), .string("displayName"), .objects("mfaInfo", mfaEnrollment), .string("photoUrl"), .boolean("emailVerified"), .string("phoneNumber"), .boolean("disabled")]),
        "identitytoolkit.accounts.update": OperationFields(body: [Field("provider", .any), Field("upgradeToFederatedLogin", .any), .string("idToken"), .string("customAttributes"), .strings("deleteAttribute"), .string("oobCode"), .object("linkProviderUserInfo", [.string("providerId"), .string("rawId"), .string("federatedId"), .string("email"), .string("displayName"), .string("photoUrl"), .string("screenName"), .string("phoneNumber")]), .object("mfa", [.objects("enrollments", [])]), .strings("deletePasskey"), .boolean("disableUser"), .string("email"), .string("password"), .integer("validSince"), .string("displayName"), .string("photoUrl"), .strings("deleteProvider"), .string("localId"), .string("phoneNumber"), .boolean("emailVerified"), .integer("createdAt"), .integer("lastLoginAt")]),
        "identitytoolkit.projects.accounts.batchCreate": OperationFields(body: [.objects("users", []), .string("hashAlgorithm"), .string("signerKey"), .string("saltSeparator"), .integer("rounds"), .integer("memoryCost"), .integer("cpuMemCost"), .integer("parallelization"), .integer("blockSize"), .integer("dkLen"), .boolean("sanityCheck"), .boolean("allowOverwrite")]),
        "identitytoolkit.projects.accounts.batchDelete": OperationFields(body: [.strings("localIds"), .boolean("force")]),
        "identitytoolkit.projects.accounts.batchGet": OperationFields(query: [.string("maxResults"), .string("nextPageToken")]),
        "identitytoolkit.projects.accounts.query": OperationFields(body: [.objects("expression", []), .string("sortBy"), .string("order"), .integer("offset"), .integer("limit"), .boolean("returnUserInfo")]),
        "identitytoolkit.projects.accounts.sendOobCode": OperationFields(body: [.string("requestType"), .boolean("returnOobLink"), .string("continueUrl"), .boolean("canHandleCodeInApp"), .string("iOSBundleId"), .string("iosBundleId"), .string("androidPackageName"), .boolean("androidInstallApp"), .string("androidMinimumVersion"), .string("linkDomain"), .string("dynamicLinkDomain"), .string("email"), .string("newEmail"), .string("idToken")], query: [.string("key")]),
        "identitytoolkit.projects.createSessionCookie": OperationFields(body: [.string("idToken"), .integer("validDuration")]),
        "identitytoolkit.projects.defaultSupportedIdpConfigs.create": OperationFields(query: [.string("idpId")]),
        "identitytoolkit.projects.defaultSupportedIdpConfigs.patch": OperationFields(query: [.string("updateMask")]),
        "identitytoolkit.projects.inboundSamlConfigs.create": OperationFields(query: [.string("inboundSamlConfigId")]),
        "identitytoolkit.projects.inboundSamlConfigs.list": OperationFields(query: [.string("pageSize"), .string("pageToken")]),
        "identitytoolkit.projects.inboundSamlConfigs.patch": OperationFields(query: [.string("updateMask")]),
        "identitytoolkit.projects.oauthIdpConfigs.create": OperationFields(query: [.string("oauthIdpConfigId")]),
        "identitytoolkit.projects.oauthIdpConfigs.list": OperationFields(query: [.string("pageSize"), .string("pageToken")]),
        "identitytoolkit.projects.oauthIdpConfigs.patch": OperationFields(query: [.string("updateMask")]),
        "identitytoolkit.projects.queryAccounts": OperationFields(body: [.objects("expression", []), .string("sortBy"), .string("order"), .integer("offset"), .integer("limit"), .boolean("returnUserInfo")]),
        "identitytoolkit.projects.tenants.list": OperationFields(query: [.string("pageSize"), .string("pageToken")]),
        "identitytoolkit.projects.tenants.patch": OperationFields(query: [.string("updateMask")]),
        "identitytoolkit.projects.updateConfig": OperationFields(query: [.string("updateMask")]),
        "securetoken.token": OperationFields(body: [.string("grantType"), .string("refreshToken")]),
        "identitytoolkit.accounts.verifyIosClient": OperationFields(body: [.string("appToken"), .boolean("isSandbox")]),
        "identitytoolkit.accounts.passkeyEnrollment.start": OperationFields(body: [.string("idToken")]),
        "identitytoolkit.accounts.passkeyEnrollment.finalize": OperationFields(body: [
            .string("idToken"), .string("name"), .string("displayName"),
            .object("authenticatorRegistrationResponse", [.string("id"), .string("rawId"), .string("type"), .map("response")]),
        ]),
        "identitytoolkit.accounts.passkeySignIn.start": OperationFields(),
        "identitytoolkit.accounts.passkeySignIn.finalize": OperationFields(body: [
            .object("authenticatorAuthenticationResponse", [.string("id"), .string("rawId"), .string("type"), .map("response")]),
        ]),
    ]
}

/// The fields of the pages a browser opens and of the console's forms: form posts, whose unknown
/// fields are ignored like a browser's extra inputs.
enum PageFields {
    /// The email action page reads each of these from the form post or, failing that, the link's query.
    private static let actionFields: [Field] = [
        .string("apiKey"), .string("oobCode"), .string("continueUrl"), .string("mode"), .string("newPassword"),
        .string("tenantId"), .string("lang"),
    ]

    /// Every console page takes the project and tenant it shows, and the message a redirect left
    /// (a form post too: a refused one draws its page again).
    private static let scopeQuery: [Field] = [.string("project"), .string("tenant")]
    private static let pageQuery: [Field] = scopeQuery + [.string("flash"), .string("error")]
    /// The inbox's search, filters and keyset page.
    private static let outboxQuery: [Field] = [.string("q"), .string("to"), .string("type"), .string("status"), .string("before")]
    /// The message the outbox shows beside its list, and which of its views.
    private static let chosenMessage: [Field] = [.string("id"), .string("view")]

    static let byOperation: [String: OperationFields] = [
        "emulator.action": OperationFields(body: actionFields, query: actionFields),
        "emulator.action.submit": OperationFields(body: actionFields, query: actionFields, isForm: true),
        // The SDK's helper frame: what the web SDK's gapi loader puts in its URL.
        "emulator.auth.iframe": OperationFields(query: [.string("apiKey"), .string("appName"), .string("v"), .string("eid"), .string("usegapi"), .string("jsh")]),
        "emulator.auth.handler": OperationFields(query: [.string("error"), .string("apiKey"), .string("providerId"), .string("tenantId"), .string("tid"), .string("authType"), .string("eventId"), .string("ibi"), .string("apn"), .string("clientId"), .string("appId"), .string("appName"), .string("redirectUrl"), .string("sessionId")]),
        "emulator.auth.handler.submit": OperationFields(body: [.string("email"), .string("sub"), .string("name"), .string("picture"), .string("emailVerified"), .string("hideEmail"), .string("screenName")], query: [.string("apiKey"), .string("providerId"), .string("tenantId"), .string("tid"), .string("authType"), .string("eventId"), .string("ibi"), .string("apn"), .string("clientId"), .string("appId"), .string("appName"), .string("redirectUrl"), .string("sessionId")], isForm: true),
        "emulator.ui.clock": OperationFields(query: pageQuery),
        ConsoleRoutes.missingPageId: OperationFields(query: pageQuery),
        "emulator.ui.clock.advance": OperationFields(body: [.string("csrf"), .string("action"), .string("amount"), .string("unit"), .string("time")], query: pageQuery, isForm: true),
        "emulator.ui.message": OperationFields(query: pageQuery + chosenMessage),
        "emulator.ui.attachment": OperationFields(query: pageQuery + [.string("id"), .string("index")]),
        "emulator.ui.outbox": OperationFields(query: pageQuery + outboxQuery + chosenMessage),
        "emulator.ui.outbox.changes": OperationFields(query: pageQuery + outboxQuery + [.string("key"), .number("waitSeconds")]),
        "emulator.ui.outbox.action": OperationFields(body: [.string("csrf"), .string("action"), .string("id")], query: pageQuery + outboxQuery + chosenMessage, isForm: true),
        "emulator.ui.providers": OperationFields(query: pageQuery),
        "emulator.ui.providers.action": OperationFields(body: [.string("csrf"), .string("action"), .string("provider"), .string("senders"), .string("address"), .string("forwarding")], query: pageQuery + [.string("back")], isForm: true),
        "emulator.ui.providers.mint": OperationFields(body: [.string("csrf"), .string("action"), .string("email"), .string("name"), .string("sub"), .string("nonce"), .string("audience"), .string("emailVerified"), .string("hideEmail"), .string("otherProvider"), .string("provider")], query: pageQuery, isForm: true),
        "emulator.ui.settings": OperationFields(query: pageQuery),
        "emulator.ui.settings.action": OperationFields(body: [.string("csrf"), .string("action"), .string("allowDuplicateEmails"), .string("improvedEmailPrivacy"), .string("numbers"), .string("displayName"), .string("allowPasswordSignup"), .string("enableEmailLinkSignin"), .string("enableAnonymousUser")], query: pageQuery, isForm: true),
        "emulator.ui.user": OperationFields(query: pageQuery + [.string("uid")]),
        "emulator.ui.user.action": OperationFields(body: [.string("csrf"), .string("action"), .string("displayName"), .string("photoUrl"), .string("email"), .string("phoneNumber"), .string("password"), .string("claims"), .string("requestType"), .string("continueUrl"), .string("confirm")], query: pageQuery + [.string("uid")], isForm: true),
        "emulator.ui.users": OperationFields(query: pageQuery + [.string("q"), .string("after")]),
        "emulator.ui.users.action": OperationFields(body: [.string("csrf"), .string("action"), .string("confirm")], query: pageQuery, isForm: true),
        "emulator.ui.users.delete-all": OperationFields(query: pageQuery),
        "emulator.ui.users.create": OperationFields(body: [.string("csrf"), .string("action"), .string("otherProvider"), .string("provider"), .string("email"), .string("displayName"), .string("phoneNumber"), .string("emailVerified"), .string("claims"), .string("password"), .string("uid"), .string("sub"), .string("hideEmail")], query: pageQuery, isForm: true),
        "emulator.ui.users.new": OperationFields(query: pageQuery),
    ]
}

/// The config documents Google's routes store whole (projects, tenants, provider configs): their
/// handlers filter or merge the body as a document, so these declarations document it.
enum ConfigFields {
    private static let mfaConfig: [Field] = [
        .string("state"), .strings("enabledProviders"), Field("providerConfigs", .array(.map(.any))),
    ]

    static let tenant: [Field] = [
        .string("displayName"), .boolean("allowPasswordSignup"), .boolean("enableEmailLinkSignin"), .boolean("disableAuth"),
        .boolean("enableAnonymousUser"), .object("mfaConfig", mfaConfig), .map("testPhoneNumbers", of: .string),
        .object("emailPrivacyConfig", [.boolean("enableImprovedEmailPrivacy")]), .map("smsRegionConfig"),
        .map("recaptchaConfig"), .map("inheritance"), .map("passwordPolicyConfig"),
    ]

    static let project: [Field] = [
        .object("signIn", [
            .boolean("allowDuplicateEmails"), .object("email", [.boolean("enabled"), .boolean("passwordRequired")]),
            .object("anonymous", [.boolean("enabled")]),
            .object("phoneNumber", [.boolean("enabled"), .map("testPhoneNumbers", of: .string)]),
        ]),
        .object("emailPrivacyConfig", [.boolean("enableImprovedEmailPrivacy")]), .object("mfa", mfaConfig),
        .object("blockingFunctions", [
            .map("triggers", of: .object([.string("functionUri"), .string("updateTime")])), .map("forwardInboundCredentials"),
        ]),
        .strings("authorizedDomains"), .map("notification"), .map("quota"), .map("monitoring"), .map("multiTenant"),
        .map("client"), .map("smsRegionConfig"), .map("recaptchaConfig"), .map("passwordPolicyConfig"), .string("subtype"),
    ]

    /// `ProviderConfigOperations.editableFields`, typed.
    static let defaultSupportedIdp: [Field] = [
        .boolean("enabled"), .string("clientId"), .string("clientSecret"),
        .object("appleSignInConfig", [.strings("bundleIds"), .map("codeFlowConfig")]),
    ]

    /// An `IdpConfigKind`'s fields, typed as its type check reads them.
    static func idpConfig(_ kind: IdpConfigKind) -> [Field] {
        kind.fields.map { name in
            switch name {
            case "enabled": return .boolean(name)
            case "responseType": return .object(name, [.boolean("idToken"), .boolean("code")])
            case _ where IdpConfigOperations.objectFields.contains(name): return .map(name)
            default: return .string(name)
            }
        }
    }

    static var byOperation: [String: OperationFields] {
        var fields: [String: OperationFields] = [
            "identitytoolkit.projects.tenants.create": OperationFields(body: tenant),
            "identitytoolkit.projects.tenants.patch": OperationFields(body: tenant),
            "identitytoolkit.projects.updateConfig": OperationFields(body: project),
            "identitytoolkit.projects.defaultSupportedIdpConfigs.create": OperationFields(body: defaultSupportedIdp),
            "identitytoolkit.projects.defaultSupportedIdpConfigs.patch": OperationFields(body: defaultSupportedIdp),
        ]
        for kind in [IdpConfigKind.oidc, IdpConfigKind.saml] {
            for action in ["create", "patch"] {
                fields["identitytoolkit.projects.\(kind.collection).\(action)"] = OperationFields(body: idpConfig(kind))
            }
        }
        return fields
    }
}
