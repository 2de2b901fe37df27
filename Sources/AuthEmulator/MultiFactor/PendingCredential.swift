#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// The `mfaPendingCredential` a first-factor sign-in answers for a user with second factors: the
/// official emulator's format, base64 of a JSON object, so tests that read it keep working.
struct PendingCredential: Sendable, Equatable {
    let localId: String
    let signInProvider: String
    let scope: UserScope
    /// Custom-token claims, carried into the tokens the second factor finally issues.
    var extraClaims: JSONObject?

    var encoded: String {
        var payload: JSONObject = [
            "_AuthEmulatorMfaPendingCredential": "DO NOT MODIFY", "localId": .string(localId),
            "signInProvider": .string(signInProvider), "projectId": .string(scope.projectId),
        ]
        payload.setIfPresent("tenantId", scope.tenantId.map { .string($0) })
        payload.setIfPresent("extraClaims", extraClaims.map { .object($0) })
        return Data(payload.encoded()).base64EncodedString()
    }

    /// Reads a credential sent back, checking it belongs to `scope` (reference §10).
    init(decoding text: String?, in scope: UserScope, missing: AuthError) throws(AuthError) {
        guard let text, !text.isEmpty else { throw missing }
        let invalid = AuthError.invalid("INVALID_MFA_PENDING_CREDENTIAL : ((Invalid phoneVerificationInfo.mfaPendingCredential.))")
        guard let data = Data(base64Encoded: text), let payload = try? JSONValue(parsing: Array(data)).objectValue,
            payload["_AuthEmulatorMfaPendingCredential"] != nil, let localId = payload["localId"]?.stringValue
        else { throw invalid }
        guard payload["projectId"]?.stringValue == scope.projectId, payload["tenantId"]?.stringValue == scope.tenantId else {
            throw AuthError.invalid("INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")
        }
        self.localId = localId
        signInProvider = payload["signInProvider"]?.stringValue ?? SignInProvider.password
        self.scope = scope
        extraClaims = payload["extraClaims"]?.objectValue
    }

    init(localId: String, signInProvider: String, scope: UserScope, extraClaims: JSONObject?) {
        self.localId = localId
        self.signInProvider = signInProvider
        self.scope = scope
        self.extraClaims = extraClaims
    }
}

extension AccountsTransaction {
    /// Finishes a first-factor sign-in (reference §10 "First-factor result"): tokens, or, for a user
    /// with second factors, `mfaPendingCredential` and the factors to choose from. Either way the
    /// user's other changes are saved; the login time only moves once the sign-in is complete.
    /// Linking a provider to the signed-in user asks for it too, as the reference and production do.
    /// The answer is `fields` followed by the tokens, or by the pending credential.
    func completeFirstFactor(
        _ user: inout UserRecord, signInProvider: String, extraClaims: JSONObject? = nil,
        signInAttributes: JSONValue? = nil, answering fields: JSONObject
    ) throws -> TokenAnswer {
        guard try enforcesSecondFactors, !user.mfaEnrollments.isEmpty else {
            user.lastLoginAt = now
            let tokens = try saveGrantingTokens(
                for: &user, signInProvider: signInProvider, extraClaims: extraClaims, signInAttributes: signInAttributes)
            return TokenAnswer(fields: fields, tokens: tokens)
        }
        try users.save(&user)
        let pending = PendingCredential(
            localId: user.localId, signInProvider: signInProvider, scope: scope, extraClaims: extraClaims)
        var answer = fields
        answer["mfaPendingCredential"] = .string(pending.encoded)
        answer["mfaInfo"] = .array(user.mfaEnrollments.map { .object($0.redactedJSON) })
        return TokenAnswer(fields: answer)
    }
}

/// Second factors set directly (`accounts:update` `mfa.enrollments`, signUp `mfaInfo`, by an admin or
/// a client seeding a test), with the reference's rules (§8.1).
enum AdminEnrollments {
    /// `keepIds`: update keeps the given ids; signUp always makes new ones.
    static func parse(_ entries: [JSONObject], keepIds: Bool, now: Instant, identifiers: any IdentifierSource) throws(AuthError) -> [MFAEnrollment] {
        var enrollments: [MFAEnrollment] = []
        for entry in entries {
            guard let number = entry["phoneInfo"]?.stringValue, PhoneNumber.isValid(number) else {
                throw AuthError.invalid("INVALID_MFA_PHONE_NUMBER : Invalid format.")
            }
            // The same number twice is one factor: later entries are dropped before their ids are checked.
            guard !enrollments.contains(where: { $0.phoneNumber == number }) else { continue }
            var id = identifiers.alphanumeric(28)
            if keepIds {
                guard let given = entry["mfaEnrollmentId"]?.stringValue, !given.isEmpty else {
                    throw AuthError.invalid("INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
                }
                guard !enrollments.contains(where: { $0.mfaEnrollmentId == given }) else {
                    throw AuthError.invalid("DUPLICATE_MFA_ENROLLMENT_ID")
                }
                id = given
            }
            enrollments.append(
                MFAEnrollment(
                    mfaEnrollmentId: id, displayName: entry["displayName"]?.stringValue,
                    enrolledAt: entry["enrolledAt"]?.stringValue.flatMap(Instant.init(rfc3339:)) ?? now, factor: .phone(number)))
        }
        return enrollments
    }
}
