import JOSE
import JSON

/// The refresh token string in the official emulator's format (reference §7.3): standard base64,
/// padded, of a JSON record (`_AuthEmulatorRefreshToken`, `localId`, `provider`, `extraClaims`,
/// `projectId`, `secondFactor`, `tenantId`), so tests that decode it, as firebase-tools' own do,
/// read the same fields. A random `tokenId` makes each one unique and unguessable. The server never
/// reads the content back: a refresh looks the whole string up in the store, so an edited or forged
/// token is simply unknown.
enum RefreshTokenFormat {
    static func encode(_ record: RefreshTokenRecord, tokenId: String) -> String {
        var json: JSONObject = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": .string(record.localId),
            "provider": .string(record.signInProvider), "extraClaims": .object(record.extraClaims ?? [:]),
            "projectId": .string(record.scope.projectId),
        ]
        json.setIfPresent("secondFactor", record.secondFactor.map { .object($0) })
        json.setIfPresent("tenantId", record.scope.tenantId.map { .string($0) })
        json["tokenId"] = .string(tokenId)
        return Base64Encoding.standard.encode(json.encoded())
    }
}
