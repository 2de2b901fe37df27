import JSON

/// What a blocking function answered: the `userRecord` fields named by its `updateMask`
/// (reference §11.5). A field in the mask but not in the record is cleared.
struct BlockingUpdate: Sendable {
    var displayName: String??
    var photoUrl: String??
    var disabled: Bool?
    var emailVerified: Bool?
    /// Serialized, as `customAttributes` stores them.
    var customClaims: String??
    var sessionClaims: JSONObject?

    static func parse(_ body: [UInt8], trigger: BlockingTrigger) throws(AuthError) -> BlockingUpdate {
        guard let answer = try? JSONValue(parsing: body), let object = answer.objectValue else {
            throw BlockingFailure.transport("Response body is not valid JSON.")
        }
        var update = BlockingUpdate()
        guard let record = object["userRecord"]?.objectValue else { return update }
        guard let mask = record["updateMask"]?.stringValue else {
            throw BlockingFailure.response("Response UserRecord is missing updateMask.")
        }
        for field in mask.split(separator: ",").map({ String($0).filter { $0 != " " } }) {
            let value = record[field]
            switch field {
            case "displayName": update.displayName = .some(value?.stringValue)
            case "photoUrl": update.photoUrl = .some(value?.stringValue)
            case "disabled": update.disabled = value?.boolValue ?? false
            case "emailVerified": update.emailVerified = value?.boolValue ?? false
            case "customClaims":
                if let claims = value?.objectValue {
                    try CustomClaims.validate(claims)
                    update.customClaims = .some(claims.isEmpty ? nil : claims.compactString)
                } else {
                    update.customClaims = .some(nil)
                }
            case "sessionClaims":
                guard trigger == .beforeSignIn else { continue }
                if let claims = value?.objectValue {
                    try CustomClaims.validate(claims)
                    update.sessionClaims = claims
                }
            default: continue
            }
        }
        return update
    }

    /// `later` wins where it says something.
    func followed(by later: BlockingUpdate) -> BlockingUpdate {
        BlockingUpdate(
            displayName: later.displayName ?? displayName, photoUrl: later.photoUrl ?? photoUrl,
            disabled: later.disabled ?? disabled, emailVerified: later.emailVerified ?? emailVerified,
            customClaims: later.customClaims ?? customClaims, sessionClaims: later.sessionClaims ?? sessionClaims)
    }

    /// Applies the function's changes. A function that disables the user refuses the sign-in,
    /// before anything is written (DESIGN §2.2: a refused request changes nothing).
    func apply(to user: inout UserRecord) throws(AuthError) {
        if let displayName { user.displayName = displayName }
        if let photoUrl { user.photoUrl = photoUrl }
        if let emailVerified { user.emailVerified = emailVerified }
        if let customClaims { user.customAttributes = customClaims }
        if let disabled { user.disabled = disabled }
        if user.disabled { throw AuthError.invalid("USER_DISABLED") }
    }
}

enum BlockingFailure {
    static func response(_ detail: String) -> AuthError {
        AuthError.invalid("BLOCKING_FUNCTION_ERROR_RESPONSE : ((\(detail)))")
    }

    /// Transport failures and unreadable answers. The reference answers these with 500; we answer
    /// 400, because a 500 makes the Admin SDKs retry (with backoff) what will fail again.
    static func transport(_ detail: String) -> AuthError {
        response(detail)
    }
}
