import FuzzSupport
import JOSE
import JSON

// JOSE's parsers on text from outside: compact JWS, JWK and JWKS, PEM, base64url, base32. The
// first byte picks the parser; the rest is its input.
FuzzDriver.run { bytes in
    let input = FuzzInput(bytes)
    switch input.selector % 6 {
    case 0:
        if let token = try? CompactJWT(parsing: input.text) {
            _ = token.algorithm
            _ = token.keyID
        }
    case 1:
        if case .object(let jwk)? = try? JSONValue(parsing: input.rest), let key = try? VerificationKey(jwk: jwk) {
            _ = key.jwk(keyID: "k")
            _ = key.verify(signature: Array(input.rest.prefix(64)), over: input.rest, algorithm: .rs256)
        }
    case 2:
        if let keys = (try? JSONValue(parsing: input.rest))?["keys"]?.arrayValue {
            for case .object(let jwk) in keys { _ = try? VerificationKey(jwk: jwk) }
        }
    case 3:
        if let key = try? VerificationKey(publicKeyPEM: input.text) { _ = try? key.publicKeyPEM() }
    case 4:
        if let decoded = Base64URL.decode(input.text) {
            FuzzDriver.require(Base64URL.decode(Base64URL.encode(decoded)) == decoded, "base64url round trip")
        }
    default:
        if let decoded = Base32.decode(input.text) {
            FuzzDriver.require(Base32.decode(Base32.encode(decoded)) == decoded, "base32 round trip")
        }
    }
}
