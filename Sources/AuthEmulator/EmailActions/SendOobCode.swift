import JSON

/// `accounts:sendOobCode` (v3 `getOobConfirmationCode`, admin and tenant forms), reference §5.1:
/// makes an email action code and puts its email in the outbox; an admin's `returnOobLink` (the
/// Admin SDKs' `generate…Link`) gets the link back instead and, as in production, nothing is mailed.
enum SendOobCode {
    /// The official emulator's links always say this key; the link's key is never checked.
    static let linkAPIKey = "fake-api-key"

    static func run(_ request: OperationRequest) throws -> JSONObject {
        try run(request, mailingReturnedLink: false)
    }

    /// `mailingReturnedLink`: the console's "send" asks as an owner (so that every type goes by
    /// email, without the user's ID token) and still wants the message in the outbox.
    static func run(_ request: OperationRequest, mailingReturnedLink: Bool) throws -> JSONObject {
        try request.requireEnabledBeforeFields()
        let body = request.body
        let type = try OobRequestType.parse(body.value("requestType"))
        let returnOobLink = try body.bool("returnOobLink") ?? false
        guard !returnOobLink || request.isPrivileged else { throw AuthError.invalid("INSUFFICIENT_PERMISSION") }
        let continueUrl = try body.nonEmptyString("continueUrl")
        if let continueUrl, !AbsoluteURI.isValid(continueUrl) {
            throw AuthError.invalid("INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
        }
        let app = ActionLinks.AppSettings(
            canHandleCodeInApp: try body.bool("canHandleCodeInApp") ?? false,
            iOSBundleId: try body.nonEmptyString("iOSBundleId") ?? body.nonEmptyString("iosBundleId"),
            androidPackageName: try body.nonEmptyString("androidPackageName"),
            androidInstallApp: try body.bool("androidInstallApp") ?? false,
            androidMinimumVersion: try body.nonEmptyString("androidMinimumVersion"),
            linkDomain: try body.nonEmptyString("linkDomain"), dynamicLinkDomain: try body.nonEmptyString("dynamicLinkDomain"))
        let code = request.environment.identifiers.opaqueToken(bytes: 40)
        let bodyEmail = try body.nonEmptyString("email").map(EmailAddress.canonical)
        let newEmail = try body.nonEmptyString("newEmail").map(EmailAddress.canonical)
        let idToken = try body.nonEmptyString("idToken")
        let apiKey = request.apiKey ?? linkAPIKey

        try BlockingFunctions.beforeSending(request, .beforeSendEmail) {
            let target = try request.read { transaction in
                try recipient(type, bodyEmail: bodyEmail, newEmail: newEmail, idToken: idToken, returnOobLink: false, in: transaction)
            }
            guard let target else { return nil }
            // Production names the sign-in type EMAIL_SIGN_IN in this event.
            let emailType = type == .emailSignIn ? "EMAIL_SIGN_IN" : type.rawValue
            return ["email": .string(target.email), "email_type": .string(emailType)]
        }
        // Built before the write (they need no stored state): the writer's lock holds SQL, not
        // the percent-encoding of three links (DESIGN §2.6).
        let links = ActionLinks(
            origin: request.origin, requestType: type, code: code, apiKey: apiKey, continueUrl: continueUrl,
            tenantId: request.scope.tenantId, projectId: request.scope.projectId, app: app)
        return try request.write { transaction in
            try transaction.requireEnabled(type == .emailSignIn ? .emailLink : .account)
            var response: JSONObject = ["kind": "identitytoolkit#GetOobConfirmationCodeResponse"]
            let target = try recipient(
                type, bodyEmail: bodyEmail, newEmail: newEmail, idToken: idToken, returnOobLink: returnOobLink,
                in: transaction)
            guard let target else {
                // Email enumeration protection: the same answer as for a real account, and no code.
                response.setIfPresent("email", bodyEmail.map { .string($0) })
                return response
            }
            let record = OobCodeRecord(
                code: code, scope: transaction.scope, requestType: type, email: target.email, newEmail: newEmail,
                oobLink: links.oobLink, continueUrl: continueUrl, createdAt: transaction.now,
                expiresAt: transaction.now.adding(seconds: type.lifetimeSeconds))
            try transaction.store.oobCodes.insert(record)
            response["email"] = .string(target.email)
            if returnOobLink {
                // The emulator's own link, as the official emulator answers even for
                // canHandleCodeInApp: following it never leaves localhost. The backend that
                // asked mails it itself (production sends nothing), so the outbox gets nothing;
                // the code is in the `oobCodes` listing.
                response["oobCode"] = .string(code)
                response["oobLink"] = .string(links.oobLink)
                guard mailingReturnedLink else { return response }
            }
            // VERIFY_AND_CHANGE_EMAIL goes to the new address: it is the one to prove.
            try Outbox(transaction: transaction).send(
                .init(
                    type: type, to: type == .verifyAndChangeEmail ? (newEmail ?? target.email) : target.email,
                    newEmail: newEmail, displayName: target.displayName, code: record, links: links))
            return response
        }
    }

    private struct Recipient {
        let email: String
        let displayName: String?
    }

    /// Who the email is for, by the reference's rules per type; nil when email-enumeration
    /// protection hides that nobody has the address.
    private static func recipient(
        _ type: OobRequestType, bodyEmail: String?, newEmail: String?, idToken: String?, returnOobLink: Bool,
        in transaction: AccountsTransaction
    ) throws -> Recipient? {
        let users = transaction.users
        let scope = transaction.scope
        switch type {
        case .emailSignIn:
            guard let bodyEmail else { throw AuthError.invalid("MISSING_EMAIL") }
            return Recipient(email: bodyEmail, displayName: try users.emailOwner(bodyEmail, in: scope)?.displayName)
        case .passwordReset:
            guard let bodyEmail else { throw AuthError.invalid("MISSING_EMAIL") }
            guard let user = try users.emailOwner(bodyEmail, in: scope) else {
                if try transaction.config().improvedEmailPrivacy { return nil }
                throw AuthError.invalid("EMAIL_NOT_FOUND")
            }
            return Recipient(email: bodyEmail, displayName: user.displayName)
        case .verifyEmail, .verifyAndChangeEmail:
            if type == .verifyAndChangeEmail {
                guard let newEmail else { throw AuthError.invalid("MISSING_NEW_EMAIL") }
                if try !users.users(email: newEmail, in: scope).isEmpty { throw AuthError.invalid("EMAIL_EXISTS") }
            }
            let user: UserRecord
            if returnOobLink, idToken == nil {
                guard let bodyEmail else { throw AuthError.invalid("MISSING_EMAIL") }
                guard let owner = try users.users(email: bodyEmail, in: scope).first else {
                    throw AuthError.invalid("USER_NOT_FOUND")
                }
                user = owner
            } else {
                guard let idToken else {
                    throw AuthError.invalid(type == .verifyEmail ? "INVALID_ID_TOKEN" : "MISSING_ID_TOKEN")
                }
                user = try transaction.authenticate(idToken: idToken).user
            }
            guard let email = user.email else { throw AuthError.invalid("MISSING_EMAIL") }
            return Recipient(email: email, displayName: user.displayName)
        case .recoverEmail:
            throw AuthError.notImplemented(type.rawValue)
        }
    }
}
