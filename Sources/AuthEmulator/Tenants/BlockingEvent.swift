import JOSE
import JSON

/// The blocking-function events the emulator sends (reference §11.5).
enum BlockingTrigger: String, Sendable, CaseIterable {
    case beforeCreate
    case beforeSignIn
    /// Before an email action's message goes out; the function may refuse it.
    case beforeSendEmail
    /// Before an SMS code goes out; the function may refuse it.
    case beforeSendSms
}

/// One event, as the unsigned (`alg: none`) JWT that goes in `{"data":{"jwt":…}}`.
struct BlockingEvent {
    let trigger: BlockingTrigger
    let functionUri: String
    let scope: UserScope
    /// The user the event is about; a message may go to someone who has no account yet.
    let user: UserRecord?
    let signInMethod: String?
    let now: Instant
    let eventId: String
    /// `raw_user_info` and the forwarded `oauth_*` credentials of a provider sign-in.
    var providerClaims = JSONObject()

    var jwt: String {
        let header: JSONObject = ["alg": "none", "typ": "JWT"]
        return Base64URL.encode(header.encoded()) + "." + Base64URL.encode(payload.encoded()) + "."
    }

    var requestBody: [UInt8] {
        JSONObject(dictionaryLiteral: ("data", ["jwt": .string(jwt)])).encoded()
    }

    var payload: JSONObject {
        let issuedAt = now.secondsSinceEpoch
        var claims: JSONObject = [
            "iss": .string("https://securetoken.google.com/\(scope.projectId)"), "aud": .string(functionUri),
            "iat": .int(issuedAt), "exp": .int(issuedAt + 600), "event_id": .string(eventId),
            "event_type": .string(trigger.rawValue), "user_agent": "NotYetSupportedInFirebaseAuthEmulator",
            "ip_address": "127.0.0.1", "locale": "en",
        ]
        if let user {
            claims["sub"] = .string(user.localId)
            claims["user_record"] = .object(userRecord(user))
        }
        claims.setIfPresent("sign_in_method", signInMethod.map { .string($0) })
        claims.setIfPresent("tenant_id", scope.tenantId.map { .string($0) })
        claims.merge(providerClaims)
        return claims
    }

    private func userRecord(_ user: UserRecord) -> JSONObject {
        var record: JSONObject = ["uid": .string(user.localId)]
        record.setIfPresent("email", user.email.map { .string($0) })
        record["email_verified"] = .bool(user.emailVerified ?? false)
        record.setIfPresent("display_name", user.displayName.map { .string($0) })
        record.setIfPresent("photo_url", user.photoUrl.map { .string($0) })
        record["disabled"] = .bool(user.disabled)
        record.setIfPresent("phone_number", user.phoneNumber.map { .string($0) })
        let claims = user.customAttributes.flatMap { try? JSONValue(parsing: $0).objectValue } ?? JSONObject()
        record["custom_claims"] = .object(claims)
        record["provider_data"] = .array(
            user.providerUserInfo.map { info in
                var entry: JSONObject = ["provider_id": .string(info.providerId), "uid": .string(info.rawId)]
                entry.setIfPresent("display_name", info.displayName.map { .string($0) })
                entry.setIfPresent("photo_url", info.photoUrl.map { .string($0) })
                entry.setIfPresent("email", info.email.map { .string($0) })
                entry.setIfPresent("phone_number", info.phoneNumber.map { .string($0) })
                return .object(entry)
            })
        if !user.mfaEnrollments.isEmpty {
            record["multi_factor"] = [
                "enrolled_factors": .array(
                    user.mfaEnrollments.map { enrollment in
                        var factor: JSONObject = [
                            "uid": .string(enrollment.mfaEnrollmentId), "enrollment_time": .string(enrollment.enrolledAt.rfc3339),
                        ]
                        factor.setIfPresent("display_name", enrollment.displayName.map { .string($0) })
                        if case .phone(let number) = enrollment.factor {
                            factor["phone_number"] = .string(number)
                            factor["factor_id"] = "phone"
                        } else {
                            factor["factor_id"] = "totp"
                        }
                        return .object(factor)
                    })
            ]
        }
        var metadata: JSONObject = ["creation_time": .int(user.createdAt.millisecondsSinceEpoch)]
        metadata.setIfPresent("last_sign_in_time", user.lastLoginAt.map { .int($0.millisecondsSinceEpoch) })
        record["metadata"] = .object(metadata)
        record.setIfPresent("tenant_id", user.scope.tenantId.map { .string($0) })
        return record
    }
}
