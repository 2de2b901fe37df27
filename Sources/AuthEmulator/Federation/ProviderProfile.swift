import JOSE

/// How one fake identity provider shapes and checks its tokens, after the real provider it
/// stands for (DESIGN §2.1). Every provider id that is not one of the four named ones is a
/// generic OIDC provider served by the emulator itself.
struct ProviderProfile: Sendable {
    enum Family: Sendable {
        case apple, facebook, google, yahoo, genericOIDC
    }

    let providerId: String
    let family: Family

    init(_ providerId: String) {
        self.providerId = providerId
        switch providerId {
        case "apple.com": family = .apple
        case "facebook.com": family = .facebook
        case "google.com": family = .google
        case "yahoo.com": family = .yahoo
        default: family = .genericOIDC
        }
    }

    /// The `iss` this provider's tokens carry. A generic provider is issued by the emulator at the
    /// address the client reached it on.
    func issuer(origin: String) -> String {
        switch family {
        case .apple: "https://appleid.apple.com"
        case .facebook: "https://www.facebook.com"
        case .google: "https://accounts.google.com"
        case .yahoo: "https://api.login.yahoo.com"
        case .genericOIDC: "\(origin)\(Self.routePrefix)/\(providerId)"
        }
    }

    /// Whether a token's `iss` is this provider's. Facebook's Limited Login tokens have carried
    /// both hosts; Google's both spellings; a generic provider's any address of this emulator.
    func accepts(issuer: String) -> Bool {
        switch family {
        case .apple: issuer == "https://appleid.apple.com"
        case .facebook: issuer == "https://www.facebook.com" || issuer == "https://limited.facebook.com"
        case .google: issuer == "https://accounts.google.com" || issuer == "accounts.google.com"
        case .yahoo: issuer == "https://api.login.yahoo.com"
        case .genericOIDC:
            (issuer.hasPrefix("http://") || issuer.hasPrefix("https://"))
                && issuer.hasSuffix("\(Self.routePrefix)/\(providerId)")
        }
    }

    /// What `iss` should be, for error messages.
    var expectedIssuerDescription: String {
        switch family {
        case .facebook: "https://www.facebook.com or https://limited.facebook.com"
        case .genericOIDC: "http://<emulator host>\(Self.routePrefix)/\(providerId)"
        default: issuer(origin: "")
        }
    }

    static let routePrefix = "/emulator/v1/idp"

    /// Apple and Facebook put SHA-256(raw nonce) in the token and Firebase hashes the raw nonce
    /// the app sends to compare; other providers carry the nonce as given.
    var hashesNonce: Bool { family == .apple || family == .facebook }

    /// The provider with a shape of its own that an unknown id most likely meant: `apple` or
    /// `Apple.com` for apple.com, a near miss such as `gogle.com` for google.com.
    static func namedProvider(near providerId: String) -> String? {
        let named = ["apple.com", "facebook.com", "google.com", "yahoo.com"]
        guard !named.contains(providerId) else { return nil }
        let bare = providerId.lowercased().hasSuffix(".com") ? String(providerId.lowercased().dropLast(4)) : providerId.lowercased()
        return named.first { $0.dropLast(4) == bare } ?? NearestName.among(named, to: providerId)
    }

    func nonceClaim(forRawNonce raw: String) -> String {
        hashesNonce ? SHA256.hexDigest(of: raw) : raw
    }

    /// The `aud` minted tokens carry unless the caller names one: what an app of each kind uses.
    var defaultAudience: String {
        switch family {
        case .apple: "com.example.app"
        case .facebook: "1234567890"
        case .google: "1234567890-emulator.apps.googleusercontent.com"
        case .yahoo: "emulator-yahoo-client"
        case .genericOIDC: "emulator-client"
        }
    }

    /// Apple identity tokens live ten minutes; the others an hour.
    var defaultLifetimeSeconds: Int64 { family == .apple ? 600 : 3600 }

    /// A subject in the provider's own shape. Derived from the email when there is one, so that
    /// minting for the same person twice gives the same user (a returning sign-in).
    func subject(forEmail email: String?, random: () -> [UInt8]) -> String {
        let seed = email.map { SHA256.hash(Array("\(providerId)|\($0.lowercased())".utf8)) } ?? random()
        let hex = seed.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let digits = seed.map { String($0 % 10) }.joined()
        switch family {
        case .apple:
            // Apple's dotted form: 000123.<32 hex>.0123
            return "00\(digits.prefix(4)).\(hex.prefix(32)).\(digits.dropFirst(4).prefix(4))"
        case .facebook:
            return "1" + digits.prefix(15)
        case .google:
            return "1" + digits.prefix(20)
        case .yahoo:
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
            return String(seed.prefix(26).map { alphabet[Int($0) % 32] })
        case .genericOIDC:
            return "user-" + hex.prefix(20)
        }
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
