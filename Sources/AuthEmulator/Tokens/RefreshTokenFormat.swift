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
        return standardBase64(Array(json.compactString.utf8))
    }

    /// RFC 4648 §4 (`+`, `/`, `=` padding), as Node's `Buffer.toString("base64")` writes it.
    static func standardBase64(_ bytes: [UInt8]) -> String {
        let urlSafe = Base64URL.encode(bytes).map { character -> Character in
            switch character {
            case "-": return "+"
            case "_": return "/"
            default: return character
            }
        }
        return String(urlSafe) + String(repeating: "=", count: (4 - urlSafe.count % 4) % 4)
    }
}
