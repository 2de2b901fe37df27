/// How much key material the fake providers may hold, so that a loop over random provider ids or
/// rotations cannot eat the CPU (an RSA key costs 0.1–0.8 s) and the database.
public struct FakeProviderLimits: Sendable, Equatable {
    /// Provider ids that may hold keys. Any id still answers discovery; the first key of an id
    /// beyond the cap is refused with `RESOURCE_EXHAUSTED`.
    public var providers: Int
    /// Keys kept per provider and algorithm: the newest signs, the others still verify (Apple
    /// publishes about three). A rotation beyond it drops the oldest.
    public var keysPerProvider: Int

    public static let defaultProviders = 100
    public static let defaultKeysPerProvider = 3

    public init(providers: Int = defaultProviders, keysPerProvider: Int = defaultKeysPerProvider) {
        self.providers = max(providers, 1)
        self.keysPerProvider = max(keysPerProvider, 1)
    }

    /// 429, as Google answers a quota: names the cap and how to get under it.
    static func tooManyProviders(_ cap: Int) -> AuthError {
        AuthError(
            httpStatus: 429,
            message: "RESOURCE_EXHAUSTED : The fake identity providers already hold keys for \(cap) provider ids, the emulator's cap; use one of those ids or start a fresh emulator.",
            reason: "rateLimitExceeded", status: "RESOURCE_EXHAUSTED")
    }
}
