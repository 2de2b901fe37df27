import JOSE
import JSON

/// `--id-tokens`: how ID tokens and session cookies are encoded.
public enum IDTokenMode: String, Sendable, Equatable {
    /// `alg: none` with an empty signature: what every Admin SDK in emulator mode requires.
    case unsigned
    /// RS256 with a `kid`, keys published at `/emulator/v1/securetoken/jwks` and `…/x509`, for
    /// backends that verify tokens with a standard JWT library outside emulator mode.
    case signed
}

/// Encodes ID tokens and session cookies in the configured mode. The signing key is made (or read
/// from `--data`) when the emulator starts, so no token ever waits for a key.
struct IDTokenSigner: Sendable {
    /// The keyring slot of the emulator's own token keys.
    static let keyOwner = "securetoken.google.com"

    let mode: IDTokenMode
    private let key: ProviderKeyring.ActiveKey?
    /// Google's `x509` map publishes certificates; one, self-signed, is made per start.
    private let certificatePEM: String?

    init(mode: IDTokenMode, keyring: ProviderKeyring, now: Instant) throws {
        self.mode = mode
        key = mode == .signed ? try keyring.activeKey(of: Self.keyOwner, algorithm: .rs256, now: now) : nil
        certificatePEM = try key?.key.selfSignedCertificatePEM(
            commonName: "securetoken.system.gserviceaccount.com", serial: 1, validSeconds: 30 * 86_400)
    }

    /// `{"keys": [JWK]}`, or nil when tokens are unsigned.
    var jwks: JSONObject? {
        key.map { ["keys": [.object($0.key.publicKey.jwk(keyID: $0.kid))]] }
    }

    /// `{"<kid>": "<PEM certificate>"}`, Google's format, or nil when tokens are unsigned.
    var x509: JSONObject? {
        guard let key, let certificatePEM else { return nil }
        return [key.kid: .string(certificatePEM)]
    }

    /// Whether a token that names our key was signed by it; nil for a token that names no key of ours.
    func verifies(_ jwt: CompactJWT) -> Bool? {
        guard let key, jwt.keyID == key.kid else { return nil }
        return jwt.verify(with: key.key.publicKey)
    }

    func encode(_ payload: JSONObject) throws -> String {
        try encode(payloadJSON: payload.encoded())
    }

    /// An ID token granted by a sign-in or a refresh.
    func encode(_ claims: IDTokenClaims) throws -> String {
        try encode(payloadJSON: claims.encoded())
    }

    /// A payload already written as compact JSON.
    func encode(payloadJSON: [UInt8]) throws -> String {
        guard let key else { return CompactJWT.unsigned(payloadJSON: payloadJSON) }
        return try CompactJWT.sign(payloadJSON: payloadJSON, key: key.key, keyID: key.kid)
    }
}

/// `GET /emulator/v1/securetoken/jwks` and `…/x509`: the keys that sign ID tokens and session
/// cookies with `--id-tokens signed`.
enum SecureTokenKeys {
    private static let unsignedMode = AuthError(
        httpStatus: 404,
        message: "NOT_FOUND : ID tokens are unsigned (alg none); start the emulator with --id-tokens signed to get signing keys.",
        reason: "notFound", status: "NOT_FOUND")

    static func jwks(_ request: OperationRequest) throws -> JSONObject {
        guard let jwks = request.environment.idTokenSigner.jwks else { throw unsignedMode }
        return jwks
    }

    static func x509(_ request: OperationRequest) throws -> JSONObject {
        guard let certificates = request.environment.idTokenSigner.x509 else { throw unsignedMode }
        return certificates
    }
}
