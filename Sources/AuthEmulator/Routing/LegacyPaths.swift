/// The Apple SDK's legacy `www.googleapis.com/identitytoolkit/v3/relyingparty/<name>` paths and
/// the v1 paths they stand for (reference §2.7). Unknown names fall through to a v1 path that does
/// not exist, hence 404, as in the reference emulator.
enum LegacyPaths {
    static let prefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

    private static let v1Names: [String: String] = [
        "createAuthUri": "accounts:createAuthUri",
        "deleteAccount": "accounts:delete",
        "emailLinkSignin": "accounts:signInWithEmailLink",
        "getAccountInfo": "accounts:lookup",
        "getOobConfirmationCode": "accounts:sendOobCode",
        "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams",
        "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode",
        "setAccountInfo": "accounts:update",
        "signupNewUser": "accounts:signUp",
        "verifyAssertion": "accounts:signInWithIdp",
        "verifyClient": "accounts:verifyIosClient",
        "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
    ]

    /// Every name the v3 family answers, for a mistyped one's suggestion.
    static let names = v1Names.keys.sorted() + ["downloadAccount", "signOutUser", "uploadAccount"]

    enum Rewrite: Equatable {
        /// Same method, this v1 path.
        case path(String)
        /// The admin bulk calls, which move to the target project's batch routes.
        case batch(method: String, operation: String)
        case notImplemented(String)
    }

    /// `nil` when `path` is not a legacy path.
    static func rewrite(_ path: String) -> Rewrite? {
        guard path.hasPrefix(prefix) else { return nil }
        let name = String(path.dropFirst(prefix.count))
        switch name {
        case "signOutUser": return .notImplemented("signOutUser is not implemented in the Auth Emulator.")
        case "downloadAccount": return .batch(method: "GET", operation: "accounts:batchGet")
        case "uploadAccount": return .batch(method: "POST", operation: "accounts:batchCreate")
        default: return .path("/identitytoolkit.googleapis.com/v1/" + (v1Names[name] ?? name))
        }
    }
}
