@testable import JOSE

/// Keys shared across tests: RSA generation costs ~100 ms, so it happens once per run.
enum TestKeys {
    static let rsa: SigningKey = {
        do { return try SigningKey.generateRSA() } catch { fatalError("RSA test key: \(error)") }
    }()

    static let p256: SigningKey = {
        do { return try SigningKey.generateP256() } catch { fatalError("P-256 test key: \(error)") }
    }()

    /// "Signed by someone else": the RFC 7515 A.2 key costs nothing to load.
    static let otherRSA: SigningKey = {
        do { return try SigningKey(privateJWK: RFC7515.A2.privateJWK) } catch { fatalError("RFC 7515 key: \(error)") }
    }()

    static let otherP256: SigningKey = {
        do { return try SigningKey.generateP256() } catch { fatalError("P-256 test key: \(error)") }
    }()
}
