#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// `accounts:createAuthUri` (v3 `createAuthUri`): which sign-in methods an email has
/// (reference §11.1). The Apple SDK's `fetchSignInMethods(forEmail:)` reads `signinMethods`.
enum CreateAuthUri {
    static func run(_ request: OperationRequest) throws -> JSONObject {
        try request.requireEnabledBeforeFields()
        let body = request.body
        let sessionId = try body.nonEmptyString("sessionId") ?? request.environment.identifiers.alphanumeric(27)
        if body.has("providerId") { throw AuthError.notImplemented("Sign-in with IDP is not yet supported.") }
        guard let identifier = try body.nonEmptyString("identifier") else { throw AuthError.invalid("MISSING_IDENTIFIER") }
        guard let continueUri = try body.nonEmptyString("continueUri") else {
            throw AuthError.invalid("MISSING_CONTINUE_URI")
        }
        guard EmailAddress.isValid(identifier) else { throw AuthError.invalid("INVALID_IDENTIFIER") }
        guard AbsoluteURI.isValid(continueUri) else { throw AuthError.invalid("INVALID_CONTINUE_URI") }
        let email = EmailAddress.canonical(identifier)

        return try request.read { transaction in
            try transaction.requireEnabled()
            let config = try transaction.config()
            var response: JSONObject = ["kind": "identitytoolkit#CreateAuthUriResponse"]
            if config.improvedEmailPrivacy {
                response["sessionId"] = .string(sessionId)
                return response
            }
            // The owner of the email first, then accounts whose linked provider carries it.
            var candidates = try transaction.users.users(email: email, in: transaction.scope)
            for user in try transaction.users.usersWithProviderEmail(email, in: transaction.scope)
            where !candidates.contains(where: { $0.localId == user.localId }) {
                candidates.append(user)
            }
            // With duplicate emails allowed, the first of them that has an email of its own answers.
            let answering = config.allowDuplicateEmails ? candidates.first { $0.email != nil } : candidates.first
            let methods = answering.map { signInMethods(of: $0, passwordOnly: config.allowDuplicateEmails) }
            response["registered"] = .bool(methods != nil)
            response["allProviders"] = .array((methods?.providers ?? []).map { .string($0) })
            response["sessionId"] = .string(sessionId)
            response["signinMethods"] = .array((methods?.signInMethods ?? []).map { .string($0) })
            return response
        }
    }

    /// With duplicate emails allowed, only the password family is reported (as the reference does).
    private static func signInMethods(of user: UserRecord, passwordOnly: Bool) -> (providers: [String], signInMethods: [String]) {
        var providers: [String] = []
        var methods: [String] = []
        for info in user.providerUserInfo {
            switch info.providerId {
            case SignInProvider.password:
                providers.append(SignInProvider.password)
                if user.hasPassword { methods.append(SignInProvider.password) }
                if user.emailLinkSignin { methods.append("emailLink") }
            case SignInProvider.phone:
                continue
            default:
                guard !passwordOnly else { continue }
                providers.append(info.providerId)
                methods.append(info.providerId)
            }
        }
        return (providers, methods)
    }
}

/// An absolute URI with a scheme and a host, as continue URLs must be.
enum AbsoluteURI {
    static func isValid(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme, !scheme.isEmpty,
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
