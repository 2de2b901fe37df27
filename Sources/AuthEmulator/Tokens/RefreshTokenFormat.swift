import JOSE
import JSON

/// The refresh token string in the official emulator's format (reference §7.3): standard base64,
/// padded, of a JSON record (`_AuthEmulatorRefreshToken`, `localId`, `provider`, `extraClaims`,
/// `projectId`, `secondFactor`, `tenantId`), so tests that decode it, as firebase-tools' own do,
/// read the same fields. A random `tokenId` makes each one unique and unguessable. The server never
/// reads the content back: a refresh looks the whole string up in the store, so an edited or forged
/// token is simply unknown.
enum RefreshTokenFormat {
    /// The record's JSON written member by member into one buffer, then base64 once: building it
    /// as a `JSONObject` first (every key looked up in the keys before it) and walking that tree
    /// was most of the ~14k instructions this took per sign-in (now ~4.9k with the base64, callgrind). The bytes are
    /// those of `jsonObject(_:tokenId:)` encoded, which the tests check.
    static func encode(_ record: RefreshTokenRecord, tokenId: String) -> String {
        var json = JSONStreamWriter(capacity: 256)
        json.beginObject()
        json.key("_AuthEmulatorRefreshToken")
        json.string("DO NOT MODIFY")
        json.key("localId")
        json.string(record.localId)
        json.key("provider")
        json.string(record.signInProvider)
        json.key("extraClaims")
        json.beginObject()
        if let extraClaims = record.extraClaims { json.members(of: extraClaims) }
        json.endObject()
        json.key("projectId")
        json.string(record.scope.projectId)
        if let secondFactor = record.secondFactor {
            json.key("secondFactor")
            json.value(.object(secondFactor))
        }
        if let tenantId = record.scope.tenantId {
            json.key("tenantId")
            json.string(tenantId)
        }
        json.key("tokenId")
        json.string(tokenId)
        json.endObject()
        return Base64Encoding.standard.encode(json.bytes)
    }

    /// The record as a `JSONObject`: the format's definition (keys, order, which are optional),
    /// which `encode` writes directly.
    static func jsonObject(_ record: RefreshTokenRecord, tokenId: String) -> JSONObject {
        var json: JSONObject = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": .string(record.localId),
            "provider": .string(record.signInProvider), "extraClaims": .object(record.extraClaims ?? [:]),
            "projectId": .string(record.scope.projectId),
        ]
        json.setIfPresent("secondFactor", record.secondFactor.map { .object($0) })
        json.setIfPresent("tenantId", record.scope.tenantId.map { .string($0) })
        json["tokenId"] = .string(tokenId)
        return json
    }
}
