import JOSE

/// The fake Game Center (`gc.apple.com`, DESIGN §2.1): what GameKit's identity-verification
/// signature is and where its certificate lives. GameKit (`GKLocalPlayer.fetchItems`) signs, with
/// RSA-SHA256, the player id ‖ the app's bundle id ‖ the timestamp (milliseconds, UInt64
/// big-endian) ‖ the salt, and names the certificate of the signing key by `publicKeyUrl` (Apple's
/// `https://static.gc.apple.com/public-key/gc-prod-N.cer`, one DER leaf certificate). Here each
/// of the provider's keys is such a certificate, at `/emulator/v1/idp/gc.apple.com/public-key/<kid>.cer`.
enum GameCenter {
    static let providerId = "gc.apple.com"
    static let certificatePrefix = "\(ProviderProfile.routePrefix)/\(providerId)/public-key/"

    /// How old a signature may be by the emulator clock, and how far ahead of it (a device clock
    /// a little fast), before sign-in refuses it.
    static let maximumAgeSeconds: Int64 = 300
    static let allowedFutureSeconds: Int64 = 60
    /// GameKit's salts are 4 bytes; the mint makes them so, and sign-in takes up to 32.
    static let mintedSaltLength = 4
    static let saltLengths = 4...32
    /// The bundle id the mint signs for, and sign-in assumes, when none is given.
    static let defaultBundleId = "com.example.app"
    /// How long the certificates say they are valid, from the key's creation.
    private static let certificateLifetimeSeconds: Int64 = 10 * 365 * 86_400

    /// The bytes GameKit signs.
    static func signedPayload(playerId: String, bundleId: String, timestamp: UInt64, salt: [UInt8]) -> [UInt8] {
        var payload = Array(playerId.utf8) + Array(bundleId.utf8)
        payload.reserveCapacity(payload.count + 8 + salt.count)
        for shift in stride(from: 56, through: 0, by: -8) { payload.append(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift))) }
        return payload + salt
    }

    static func publicKeyUrl(origin: String, kid: String) -> String {
        "\(origin)\(certificatePrefix)\(kid).cer"
    }

    /// `GET …/gc.apple.com/public-key/<kid>.cer`: the key's certificate, DER, signed by itself.
    /// The same key always gives the same bytes (its dates come from the key's creation, and
    /// RSA PKCS#1 v1.5 signatures are deterministic), as Apple's files do not change.
    static func certificate(_ request: OperationRequest) throws -> OperationResult {
        let file = request.pathParameters["certificate"] ?? ""
        guard let published = try request.environment.keyring.publishedKey(kid: file), published.providerId == providerId else {
            throw AuthError(
                httpStatus: 404, message: "NOT_FOUND : The fake Game Center has no certificate \(file).cer.",
                reason: "notFound", status: "NOT_FOUND")
        }
        let created = published.createdAt.secondsSinceEpoch
        let der = try published.signingKey.selfSignedCertificateDER(
            commonName: "gc-emulator-\(published.kid)", organization: "Auth Emulator (fake Game Center)",
            serial: Int(SHA256.hash(Array(published.kid.utf8)).prefix(4).reduce(0) { $0 << 8 | Int($1) }),
            validity: .between(notBefore: created - 60, notAfter: created + certificateLifetimeSeconds))
        return .download(der, contentType: "application/pkix-cert", fileName: "\(published.kid).cer")
    }

    /// The `kid` a request's `publicKeyUrl` names: only this emulator's certificate URLs count,
    /// on any address it is reached by. Nothing is ever fetched, so an outside URL is refused.
    static func keyID(fromPublicKeyUrl url: String, request: OperationRequest) throws(AuthError) -> String {
        let (scheme, rest) = url.hasPrefix("http://") ? ("http://", url.dropFirst(7)) : ("https://", url.dropFirst(8))
        guard url.hasPrefix(scheme), let slash = rest.firstIndex(of: "/"), isEmulatorHost(rest[..<slash], request: request),
            rest[slash...].hasPrefix(certificatePrefix), rest.hasSuffix(".cer")
        else {
            throw invalid(
                "publicKeyUrl \(url.prefix(200)) is not a certificate this emulator serves, and it fetches nothing from outside (Apple's static.gc.apple.com included). Sign the request with the fake Game Center: POST \(certificatePrefix.dropLast("public-key/".count))tokens")
        }
        return String(rest[slash...].dropFirst(certificatePrefix.count).dropLast(4))
    }

    /// This request's `Host`, the advertised host, or a loopback name (a mint made through
    /// `localhost` and a sign-in through `127.0.0.1` name the same emulator).
    private static func isEmulatorHost(_ authority: Substring, request: OperationRequest) -> Bool {
        if authority == request.host?[...] || authority == request.environment.defaultHost[...] { return true }
        var host = authority
        if host.hasPrefix("[") {
            host = host.prefix { $0 != "]" }.dropFirst()
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Binary fields (`signature`, `salt`): the Apple SDK sends base64url without padding; other
    /// clients send standard base64, with padding. Both are taken.
    static func binary(_ text: String, field: String) throws(AuthError) -> [UInt8] {
        let urlSafe = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        guard !text.isEmpty, let bytes = Base64URL.decode(urlSafe) else {
            throw invalid("\(field) is not base64 or base64url: \(text.prefix(64))")
        }
        return bytes
    }

    /// Every refused credential: the code production answers a Game Center credential it cannot
    /// verify with (the Apple SDK's `invalidCredential`), and the detail says which field.
    static func invalid(_ detail: String) -> AuthError {
        AuthError.invalid("INVALID_IDP_RESPONSE : \(detail)")
    }
}
