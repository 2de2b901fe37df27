#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import JSON

/// v2 `accounts/passkeyEnrollment:*` and `accounts/passkeySignIn:*`: the official emulator's mock
/// WebAuthn (reference §9.5). No attestation or assertion is checked; the credential id is the key.
enum Passkeys {
    private static let relyingParty = "localhost"

    static func startEnrollment(_ request: OperationRequest) throws -> JSONObject {
        guard let idToken = try request.body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
        let user = try request.read { try $0.authenticate(idToken: idToken).user }
        return [
            "credentialCreationOptions": [
                "rp": ["name": .string(relyingParty), "id": .string(relyingParty)],
                "user": [
                    "id": .string(Data(user.localId.utf8).base64EncodedString()),
                    "name": .string(user.email ?? "user@example.com"), "displayName": .string(user.displayName ?? "User"),
                ],
                "challenge": .string(challenge(request)),
                "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]],
                "timeout": 60000, "attestation": "none",
            ]
        ]
    }

    static func finalizeEnrollment(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        guard let idToken = try body.nonEmptyString("idToken") else { throw AuthError.invalid("MISSING_ID_TOKEN") }
        let credentialId = try self.credentialId(body, "authenticatorRegistrationResponse")
        return try request.writeGrantingTokens { transaction in
            var user = try transaction.authenticate(idToken: idToken).user
            guard try transaction.users.user(passkeyCredentialId: credentialId, in: transaction.scope) == nil else {
                throw AuthError.invalid("CREDENTIAL_ALREADY_IN_USE")
            }
            let name = try body.nonEmptyString("name") ?? body.nonEmptyString("displayName") ?? "Unnamed Passkey"
            user.passkeys.append(Passkey(credentialId: credentialId, name: name))
            return TokenAnswer(
                fields: ["localId": .string(user.localId)],
                tokens: try transaction.saveGrantingTokens(for: &user, signInProvider: "passkey"))
        }
    }

    static func startSignIn(_ request: OperationRequest) throws -> JSONObject {
        ["credentialRequestOptions": ["challenge": .string(challenge(request)), "rpId": .string(relyingParty), "userVerification": "required"]]
    }

    static func finalizeSignIn(_ request: OperationRequest) throws -> JSONObject {
        let credentialId = try self.credentialId(request.body, "authenticatorAuthenticationResponse")
        return try request.writeGrantingTokens { transaction in
            guard var user = try transaction.users.user(passkeyCredentialId: credentialId, in: transaction.scope) else {
                throw AuthError.invalid("PASSKEY_CREDENTIAL_NOT_FOUND")
            }
            guard !user.disabled else { throw AuthError.invalid("USER_DISABLED") }
            user.lastLoginAt = transaction.now
            return TokenAnswer(fields: [:], tokens: try transaction.saveGrantingTokens(for: &user, signInProvider: "passkey"))
        }
    }

    private static func credentialId(_ body: RequestBody, _ field: String) throws(AuthError) -> String {
        guard let response = try body.nested(field) else { throw AuthError.invalid("MISSING_AUTHENTICATOR_RESPONSE") }
        guard let id = try response.nonEmptyString("id") else { throw AuthError.invalid("INVALID_CREDENTIAL_ID") }
        return id
    }

    private static func challenge(_ request: OperationRequest) -> String {
        Data(request.environment.identifiers.alphanumeric(32).utf8).base64EncodedString()
    }
}
