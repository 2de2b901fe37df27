import JSON

/// The email actions an oobCode stands for, named as the REST API names them.
enum OobRequestType: String, Sendable, CaseIterable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case recoverEmail = "RECOVER_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"

    /// The enum's numbers as the discovery document orders them; Android sends `requestType: 6`.
    private static let byNumber: [Int64: String] = [
        0: "OOB_REQ_TYPE_UNSPECIFIED", 1: "PASSWORD_RESET", 2: "OLD_EMAIL_AGREE", 3: "NEW_EMAIL_ACCEPT",
        4: "VERIFY_EMAIL", 5: "RECOVER_EMAIL", 6: "EMAIL_SIGNIN", 7: "VERIFY_AND_CHANGE_EMAIL",
        8: "REVERT_SECOND_FACTOR_ADDITION",
    ]

    /// The request's `requestType`: a name, or its number (as a JSON number or a digit string).
    static func parse(_ value: JSONValue?) throws(AuthError) -> OobRequestType {
        var name: String?
        switch value {
        case .string(let text)?: name = Int64(text).flatMap { byNumber[$0] } ?? text
        case .int(let number)?: name = byNumber[number]
        case nil, .null?: name = nil
        default: throw AuthError.invalidArgument("/requestType must be string")
        }
        guard let name, name != "OOB_REQ_TYPE_UNSPECIFIED", !name.isEmpty else { throw AuthError.invalid("MISSING_REQ_TYPE") }
        guard let type = OobRequestType(rawValue: name), type != .recoverEmail else {
            // The official emulator answers 501 with the type's name for the rest.
            guard byNumber.values.contains(name) else {
                throw AuthError.invalidArgument("/requestType must be equal to one of the allowed values")
            }
            throw AuthError.notImplemented(name)
        }
        return type
    }

    /// The `mode` of the action link.
    var mode: String {
        switch self {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .recoverEmail: "recoverEmail"
        case .emailSignIn: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        }
    }

    /// How long production's links last: an hour to reset a password, six hours to sign in,
    /// three days to verify or recover an email.
    var lifetimeSeconds: Int64 {
        switch self {
        case .passwordReset: 3600
        case .emailSignIn: 6 * 3600
        case .verifyEmail, .recoverEmail, .verifyAndChangeEmail: 3 * 86_400
        }
    }

    var lifetimeDescription: String {
        switch self {
        case .passwordReset: "1 hour"
        case .emailSignIn: "6 hours"
        case .verifyEmail, .recoverEmail, .verifyAndChangeEmail: "3 days"
        }
    }
}
