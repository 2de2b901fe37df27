/// Every route the emulator answers, in match order. Operations that are not built answer 501
/// `<operationId> is not implemented in the Auth Emulator.`, as the reference emulator does for
/// routes in its API description that have no handler.
enum RouteTable {
    private static let v1 = "identitytoolkit.googleapis.com/v1"
    private static let v2 = "identitytoolkit.googleapis.com/v2"

    /// Routes of later capabilities come first: the first match wins, so they replace the 501s below.
    static let routes: [Route] = TenantRoutes.routes + ImportExportRoutes.routes + IdpConfigRoutes.routes + clientRoutes
        + projectRoutes + v2Routes + tokenRoutes + emulatorRoutes

    // MARK: Identity Toolkit v1, client form (`accounts:<name>?key=…`)

    private static let signUp = Operation("identitytoolkit.accounts.signUp", .apiKeyOrOwner, result: SignUp.answer)
    private static let lookup = Operation("identitytoolkit.accounts.lookup", .apiKeyOrOwner, result: Lookup.run)
    private static let update = Operation("identitytoolkit.accounts.update", .apiKeyOrOwner, UpdateAccount.run)
    private static let delete = Operation("identitytoolkit.accounts.delete", .apiKeyOrOwner, DeleteAccount.run)

    private static let clientRoutes: [Route] = [
        Route("POST", "\(v1)/accounts:signUp", signUp),
        Route("POST", "\(v1)/accounts:signInWithPassword", Operation(
            "identitytoolkit.accounts.signInWithPassword", .apiKeyOrOwner, result: SignInWithPassword.run)),
        Route("POST", "\(v1)/accounts:lookup", lookup),
        Route("POST", "\(v1)/accounts:update", update),
        Route("POST", "\(v1)/accounts:delete", delete),
        Route("POST", "\(v1)/accounts:createAuthUri", Operation(
            "identitytoolkit.accounts.createAuthUri", .apiKeyOrOwner, CreateAuthUri.run)),
        Route("POST", "\(v1)/accounts:signInWithCustomToken", Operation(
            "identitytoolkit.accounts.signInWithCustomToken", .apiKeyOrOwner, SignInWithCustomToken.run)),
        Route("POST", "\(v1)/accounts:signInWithIdp", Operation(
            "identitytoolkit.accounts.signInWithIdp", .apiKeyOrOwner, result: SignInWithIdp.answer)),
        Route("POST", "\(v1)/accounts:sendOobCode", Operation("identitytoolkit.accounts.sendOobCode", .apiKeyOrOwner, SendOobCode.run)),
        Route("POST", "\(v1)/accounts:resetPassword", Operation(
            "identitytoolkit.accounts.resetPassword", .apiKeyOrOwner, ResetPassword.run)),
        Route("POST", "\(v1)/accounts:signInWithEmailLink", Operation(
            "identitytoolkit.accounts.signInWithEmailLink", .apiKeyOrOwner, result: SignInWithEmailLink.run)),
        Route("POST", "\(v1)/accounts:sendVerificationCode", Operation(
            "identitytoolkit.accounts.sendVerificationCode", .apiKeyOrOwner, PhoneSignIn.sendVerificationCode)),
        Route("POST", "\(v1)/accounts:signInWithPhoneNumber", Operation(
            "identitytoolkit.accounts.signInWithPhoneNumber", .apiKeyOrOwner, PhoneSignIn.signIn)),
        Route("POST", "\(v1)/accounts:signInWithGameCenter", .unimplemented("identitytoolkit.accounts.signInWithGameCenter")),
        Route("POST", "\(v1)/accounts:issueSamlResponse", .unimplemented("identitytoolkit.accounts.issueSamlResponse")),
        Route("POST", "\(v1)/accounts:verifyIosClient", Operation(
            "identitytoolkit.accounts.verifyIosClient", .apiKeyOrOwner, PhoneSignIn.verifyIosClient)),
        Route("GET", "\(v1)/projects", Operation("identitytoolkit.getProjects", .apiKeyOrOwner, ProjectInfo.getProjects)),
        Route("GET", "\(v1)/recaptchaParams", Operation(
            "identitytoolkit.getRecaptchaParams", .apiKeyOrOwner, ProjectInfo.getRecaptchaParams)),
        Route("GET", "\(v1)/sessionCookiePublicKeys", .unimplemented("identitytoolkit.getSessionCookiePublicKeys", .apiKeyOnly)),
    ]

    // MARK: Identity Toolkit v1, admin form (`projects/{p}[/tenants/{t}]/…`)

    private static let projectRoutes: [Route] = ["\(v1)/projects/{targetProjectId}", "\(v1)/projects/{targetProjectId}/tenants/{tenantId}"]
        .flatMap { base -> [Route] in
            [
                Route("POST", "\(base)/accounts", signUp),
                Route("POST", "\(base)/accounts:lookup", lookup),
                Route("POST", "\(base)/accounts:update", update),
                Route("POST", "\(base)/accounts:delete", delete),
                Route("POST", "\(base)/accounts:sendOobCode", Operation(
                    "identitytoolkit.projects.accounts.sendOobCode", .apiKeyOrOwner, SendOobCode.run)),
                Route("POST", "\(base)/accounts:query", Operation("identitytoolkit.projects.accounts.query", .apiKeyOrOwner, BatchOperations.query)),
                Route("POST", "\(base)/accounts:batchCreate", .unimplemented("identitytoolkit.projects.accounts.batchCreate")),
                Route("POST", "\(base)/accounts:batchDelete", Operation("identitytoolkit.projects.accounts.batchDelete", .apiKeyOrOwner, BatchOperations.batchDelete)),
                Route("GET", "\(base)/accounts:batchGet", Operation("identitytoolkit.projects.accounts.batchGet", .apiKeyOrOwner, BatchOperations.batchGet)),
                Route("POST", "\(base):createSessionCookie", Operation("identitytoolkit.projects.createSessionCookie", .apiKeyOrOwner, SessionCookie.create)),
            ]
        } + [
            Route("POST", "\(v1)/projects/{targetProjectId}:queryAccounts", Operation("identitytoolkit.projects.queryAccounts", .apiKeyOrOwner, BatchOperations.query)),
        ]

    // MARK: Identity Toolkit v2

    private static let v2Routes: [Route] = [
        Route("POST", "\(v2)/accounts/mfaEnrollment:start", Operation("identitytoolkit.accounts.mfaEnrollment.start", .apiKeyOrOwner, MFAOperations.startEnrollment)),
        Route("POST", "\(v2)/accounts/mfaEnrollment:finalize", Operation("identitytoolkit.accounts.mfaEnrollment.finalize", .apiKeyOrOwner, MFAOperations.finalizeEnrollment)),
        Route("POST", "\(v2)/accounts/mfaEnrollment:withdraw", Operation("identitytoolkit.accounts.mfaEnrollment.withdraw", .apiKeyOrOwner, MFAOperations.withdraw)),
        Route("POST", "\(v2)/accounts/mfaSignIn:start", Operation("identitytoolkit.accounts.mfaSignIn.start", .apiKeyOrOwner, MFAOperations.startSignIn)),
        Route("POST", "\(v2)/accounts/mfaSignIn:finalize", Operation("identitytoolkit.accounts.mfaSignIn.finalize", .apiKeyOrOwner, MFAOperations.finalizeSignIn)),
        Route("POST", "\(v2)/accounts/passkeyEnrollment:start", Operation("identitytoolkit.accounts.passkeyEnrollment.start", .apiKeyOnly, Passkeys.startEnrollment)),
        Route("POST", "\(v2)/accounts/passkeyEnrollment:finalize", Operation("identitytoolkit.accounts.passkeyEnrollment.finalize", .apiKeyOnly, Passkeys.finalizeEnrollment)),
        Route("POST", "\(v2)/accounts/passkeySignIn:start", Operation("identitytoolkit.accounts.passkeySignIn.start", .apiKeyOnly, Passkeys.startSignIn)),
        Route("POST", "\(v2)/accounts/passkeySignIn:finalize", Operation("identitytoolkit.accounts.passkeySignIn.finalize", .apiKeyOnly, Passkeys.finalizeSignIn)),
        Route("POST", "\(v2)/accounts:revokeToken", Operation("identitytoolkit.accounts.revokeToken", .apiKeyOrOwner, RevokeToken.run)),
        Route("GET", "\(v2)/passwordPolicy", .unimplemented("identitytoolkit.getPasswordPolicy")),
        Route("GET", "\(v2)/recaptchaConfig", .unimplemented("identitytoolkit.getRecaptchaConfig")),
        Route("GET", "\(v2)/projects/{targetProjectId}/config", .unimplemented("identitytoolkit.projects.getConfig")),
        Route("PATCH", "\(v2)/projects/{targetProjectId}/config", .unimplemented("identitytoolkit.projects.updateConfig")),
        Route("GET", "\(v2)/projects/{targetProjectId}/tenants", .unimplemented("identitytoolkit.projects.tenants.list")),
        Route("POST", "\(v2)/projects/{targetProjectId}/tenants", .unimplemented("identitytoolkit.projects.tenants.create")),
        Route("GET", "\(v2)/projects/{targetProjectId}/tenants/{tenantId}", .unimplemented("identitytoolkit.projects.tenants.get")),
        Route("PATCH", "\(v2)/projects/{targetProjectId}/tenants/{tenantId}", .unimplemented("identitytoolkit.projects.tenants.patch")),
        Route("DELETE", "\(v2)/projects/{targetProjectId}/tenants/{tenantId}", .unimplemented("identitytoolkit.projects.tenants.delete")),
    ] + ["\(v2)/projects/{targetProjectId}", "\(v2)/projects/{targetProjectId}/tenants/{tenantId}"].flatMap { base -> [Route] in
        let configs = "\(base)/defaultSupportedIdpConfigs"
        let id = "identitytoolkit.projects.defaultSupportedIdpConfigs"
        return [
            Route("POST", configs, Operation("\(id).create", .apiKeyOrOwner, ProviderConfigOperations.create)),
            Route("GET", configs, Operation("\(id).list", .apiKeyOrOwner, ProviderConfigOperations.list)),
            Route("GET", "\(configs)/{idpId}", Operation("\(id).get", .apiKeyOrOwner, ProviderConfigOperations.get)),
            Route("PATCH", "\(configs)/{idpId}", Operation("\(id).patch", .apiKeyOrOwner, ProviderConfigOperations.update)),
            Route("DELETE", "\(configs)/{idpId}", Operation("\(id).delete", .apiKeyOrOwner, ProviderConfigOperations.delete)),
        ]
    }

    // MARK: Secure Token

    private static let tokenRoutes: [Route] = [
        Route("POST", "securetoken.googleapis.com/v1/token", Operation("securetoken.token", .apiKeyOnly, SecureToken.run)),
    ]

    // MARK: The emulator's own routes

    private static let emulatorRoutes: [Route] =
        [
            Route("GET", "", Operation("emulator.status", .open, EmulatorOperations.status)),
            Route("GET", "emulator/openapi.json", Operation("emulator.openapi", .open, RouteCatalogue.document)),
        ]
        + ["emulator/v1/projects/{projectId}", "emulator/v1/projects/{projectId}/tenants/{tenantId}"].flatMap { base in
            [
                Route("DELETE", "\(base)/accounts", Operation("emulator.accounts.delete", .open, EmulatorOperations.deleteAccounts)),
                Route("GET", "\(base)/oobCodes", Operation("emulator.oobCodes.list", .open, OutboxOperations.oobCodes)),
                Route("GET", "\(base)/verificationCodes", Operation(
                    "emulator.verificationCodes.list", .open, PhoneSignIn.verificationCodes)),
            ]
        } + [
            Route("POST", "emulator/v1/projects/{projectId}:reset", Operation(
                "emulator.projects.reset", .open, EmulatorReset.resetProject)),
            Route("POST", "emulator/v1/reset", Operation("emulator.reset", .open, EmulatorReset.resetEverything)),
            Route("GET", "emulator/v1/projects/{projectId}/config", Operation(
                "emulator.config.get", .open, EmulatorOperations.getConfig)),
            Route("PATCH", "emulator/v1/projects/{projectId}/config", Operation(
                "emulator.config.update", .open, EmulatorOperations.updateConfig)),
            Route("GET", "emulator/v1/projects/{projectId}/messages", Operation(
                "emulator.messages.list", .open, result: OutboxOperations.list)),
            // Before `{messageId}`, which would take `7.eml` as an id.
            Route("GET", "emulator/v1/projects/{projectId}/messages/{messageId}.eml", Operation(
                "emulator.messages.source", .open, result: OutboxOperations.source)),
            Route("GET", "emulator/v1/projects/{projectId}/messages/{messageId}", Operation(
                "emulator.messages.get", .open, result: OutboxOperations.get)),
            Route("DELETE", "emulator/v1/projects/{projectId}/messages/{messageId}", Operation(
                "emulator.messages.deleteOne", .open, OutboxOperations.delete)),
            Route("DELETE", "emulator/v1/projects/{projectId}/messages", Operation(
                "emulator.messages.delete", .open, OutboxOperations.deleteAll)),
            Route("GET", "emulator/v1/projects/{projectId}/privateRelay", Operation(
                "emulator.privateRelay.get", .open, OutboxOperations.privateRelay)),
            Route("PATCH", "emulator/v1/projects/{projectId}/privateRelay", Operation(
                "emulator.privateRelay.update", .open, OutboxOperations.updatePrivateRelay)),
            Route("GET", "emulator/v1/securetoken/jwks", Operation("emulator.securetoken.jwks", .open, SecureTokenKeys.jwks)),
            Route("GET", "emulator/v1/securetoken/x509", Operation("emulator.securetoken.x509", .open, SecureTokenKeys.x509)),
            Route("GET", "emulator/v1/clock", Operation("emulator.clock.get", .open, ClockOperations.now)),
            Route("POST", "emulator/v1/clock:advance", Operation("emulator.clock.advance", .open, ClockOperations.advance)),
            Route("POST", "emulator/v1/clock:reset", Operation("emulator.clock.reset", .open, ClockOperations.reset)),
            Route("POST", "emulator/v1/clock:set", Operation("emulator.clock.set", .open, ClockOperations.set)),
        ] + fakeProviderRoutes + pageRoutes + ConsoleRoutes.routes

    // MARK: The fake identity providers (DESIGN §3)

    private static let idp = "emulator/v1/idp"

    private static let fakeProviderRoutes: [Route] = [
        // Apple's and Facebook's own routes first: `{idp}` would match their names too.
        Route("GET", "\(idp)/apple.com/revocations", Operation("emulator.idp.apple.revocations", .open, FakeProviderOperations.revocations)),
        Route("GET", "\(idp)/apple.com/relay", Operation("emulator.idp.apple.relay.list", .open, FakeProviderOperations.relayAddresses)),
        Route("PATCH", "\(idp)/apple.com/relay/{address}", Operation(
            "emulator.idp.apple.relay.update", .open, FakeProviderOperations.updateRelayAddress)),
        Route("GET", "\(idp)/facebook.com/me", Operation(
            "emulator.idp.facebook.me", .open, FakeProviderOperations.graphMe).rendering(errorsAs: .graph)),
        Route("GET", "\(idp)/{idp}/.well-known/openid-configuration", Operation(
            "emulator.idp.discovery", .open, FakeProviderOperations.discovery)),
        Route("GET", "\(idp)/{idp}/jwks", Operation("emulator.idp.jwks", .open, FakeProviderOperations.jwks)),
        Route("POST", "\(idp)/{idp}/tokens", Operation("emulator.idp.tokens", .open, FakeProviderOperations.mint).keepingBodyKeys()),
        Route("POST", "\(idp)/{idp}/keys:rotate", Operation("emulator.idp.keys.rotate", .open, FakeProviderOperations.rotateKey)),
    ]

    // MARK: Pages a browser opens

    private static let pageRoutes: [Route] = [
        Route("GET", "emulator/auth/handler", Operation(
            "emulator.auth.handler", .open, result: HeadfulSignInPage.show).rendering(errorsAs: .emulator)),
        Route("POST", "emulator/auth/handler", Operation(
            "emulator.auth.handler.submit", .open, result: HeadfulSignInPage.complete).rendering(errorsAs: .html).keepingBodyKeys()),
        Route("GET", "emulator/action", Operation(
            "emulator.action", .open, result: EmailActionPage.run).rendering(errorsAs: .emulator)),
        Route("POST", "emulator/action", Operation(
            "emulator.action.submit", .open, result: EmailActionPage.run).rendering(errorsAs: .html).keepingBodyKeys()),
        Route("GET", "emulator/auth/iframe", Operation(
            "emulator.auth.iframe", .open, result: HeadfulSignInPage.helperIframe).rendering(errorsAs: .emulator)),
    ]
}
