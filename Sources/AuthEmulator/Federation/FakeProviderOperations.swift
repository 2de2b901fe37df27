import JOSE
import JSON

/// The fake identity providers' own routes under `/emulator/v1/idp/{idp}` (DESIGN §3): discovery,
/// keys, minting, Apple's revocations and relay, and Facebook's Graph `/me`.
enum FakeProviderOperations {
    static func discovery(_ request: OperationRequest) throws -> JSONObject {
        let profile = try profile(request)
        let base = "\(request.origin)\(ProviderProfile.routePrefix)/\(profile.providerId)"
        return [
            "issuer": .string(profile.issuer(origin: request.origin)),
            "authorization_endpoint": .string("\(request.origin)/emulator/auth/handler?providerId=\(profile.providerId)"),
            "token_endpoint": .string("\(base)/tokens"),
            "jwks_uri": .string("\(base)/jwks"),
            "response_types_supported": ["id_token", "code"],
            "subject_types_supported": profile.family == .apple ? ["pairwise"] : ["public"],
            "id_token_signing_alg_values_supported": ["RS256", "ES256"],
            "scopes_supported": ["openid", "email", "name"],
            "claims_supported": [
                "iss", "aud", "sub", "iat", "exp", "nonce", "email", "email_verified", "name", "picture",
            ],
        ]
    }

    /// Every key the provider ever published, so tokens signed before a rotation still verify. A
    /// provider publishes its RS256 key from the first look, before anything was minted.
    static func jwks(_ request: OperationRequest) throws -> JSONObject {
        let profile = try profile(request)
        let keyring = request.environment.keyring
        _ = try keyring.activeKey(of: profile.providerId, algorithm: .rs256, now: request.environment.clock.now())
        let keys = try keyring.publishedKeys(of: profile.providerId)
        return ["keys": .array(keys.map { .object($0.key.jwk(keyID: $0.kid)) })]
    }

    static func mint(_ request: OperationRequest) throws -> JSONObject {
        let profile = try profile(request)
        let minted = try TokenMint(environment: request.environment, profile: profile, origin: request.origin)
            .mint(MintRequest(request.body))
        return minted.json
    }

    static func rotateKey(_ request: OperationRequest) throws -> JSONObject {
        let profile = try profile(request)
        let algorithm = try request.body.nonEmptyString("alg").map { name throws(AuthError) in
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw AuthError.invalid("INVALID_ARGUMENT : alg must be RS256 or ES256, not \(name).")
            }
            return algorithm
        } ?? .rs256
        let kid = try request.environment.keyring.rotate(
            profile.providerId, algorithm: algorithm, now: request.environment.clock.now())
        return ["kid": .string(kid)]
    }

    static func revocations(_ request: OperationRequest) throws -> JSONObject {
        let revocations = try request.environment.store.read { try $0.fakeProviders.revocations() }
        return [
            "revocations": .array(
                revocations.map { revocation in
                    let token = revocation.tokenType == .authorizationCode ? "authorizationCode" : "accessToken"
                    return [
                        "sub": .string(revocation.sub), token: .string(revocation.code),
                        "tokenType": .string(revocation.tokenType.rawValue),
                        "projectId": .string(revocation.projectId), "revokedAt": .string(revocation.revokedAt.rfc3339),
                    ]
                })
        ]
    }

    static func relayAddresses(_ request: OperationRequest) throws -> JSONObject {
        let addresses = try request.environment.store.read { try $0.fakeProviders.relayAddresses() }
        return ["addresses": .array(addresses.map { .object(json($0)) })]
    }

    /// `PATCH …/relay/{address}` with `{"forwarding": false}`: the user stopped forwarding.
    static func updateRelayAddress(_ request: OperationRequest) throws -> JSONObject {
        let address = EmailAddress.canonical(request.pathParameters["address"] ?? "")
        guard let forwarding = try request.body.bool("forwarding") else {
            throw AuthError.invalid("INVALID_ARGUMENT : forwarding (true or false) is required.")
        }
        let updated = try request.environment.store.write { store -> FakeProviderRepository.RelayAddress? in
            guard var entry = try store.fakeProviders.relayAddress(address) else { return nil }
            try store.fakeProviders.setForwarding(forwarding, for: address)
            entry.forwarding = forwarding
            return entry
        }
        guard let updated else {
            throw AuthError(
                httpStatus: 404, message: "RELAY_ADDRESS_NOT_FOUND : \(address) is not an address the fake Apple relay handed out.",
                reason: "notFound", status: "NOT_FOUND")
        }
        return json(updated)
    }

    private static func json(_ entry: FakeProviderRepository.RelayAddress) -> JSONObject {
        ["address": .string(entry.address), "forwardTo": .string(entry.forwardTo), "forwarding": .bool(entry.forwarding)]
    }

    /// The fake Graph API: `GET /me?access_token=…&fields=id,name,email,picture` for a classic
    /// Facebook access token the fake provider issued.
    static func graphMe(_ request: OperationRequest) throws -> JSONObject {
        guard let token = request.queryValue("access_token"), !token.isEmpty else {
            throw AuthError(
                httpStatus: 400, message: "An active access token must be used to query information about the current user.",
                reason: GraphError.invalidTokenReason, status: nil)
        }
        let now = request.environment.clock.now()
        guard let issued = try request.environment.store.read({ try $0.fakeProviders.accessToken(token) }),
            issued.providerId == "facebook.com", now < issued.expiresAt
        else { throw GraphError.invalidToken }
        let fields = request.queryValue("fields")?.split(separator: ",").map(String.init) ?? ["id", "name"]
        var me = JSONObject()
        for field in fields {
            switch field {
            case "id": me["id"] = .string(issued.sub)
            case "picture":
                if let url = issued.claims["picture"] { me["picture"] = ["data": ["url": url, "is_silhouette": false]] }
            default: me.setIfPresent(field, issued.claims[field])
            }
        }
        return me
    }

    private static func profile(_ request: OperationRequest) throws(AuthError) -> ProviderProfile {
        guard let providerId = request.pathParameters["idp"], !providerId.isEmpty else { throw AuthError.notFound }
        return ProviderProfile(providerId.lowercased())
    }
}

/// The emulator clock over HTTP (DESIGN §2.5, §3). Every change is saved before it applies, so a
/// `--data` restart keeps it.
enum ClockOperations {
    static func now(_ request: OperationRequest) throws -> JSONObject {
        answer(request.environment.clock)
    }

    /// Moves the clock forward by `seconds` (a whole or fractional number, never negative).
    static func advance(_ request: OperationRequest) throws -> JSONObject {
        guard let value = request.body.value("seconds"), let seconds = value.doubleValue else {
            throw AuthError.invalid("INVALID_ARGUMENT : seconds (a number) is required.")
        }
        guard seconds >= 0, seconds <= 100 * 365 * 86_400 else {
            throw AuthError.invalid("INVALID_ARGUMENT : The clock only moves forward; seconds must be between 0 and 3153600000.")
        }
        try request.environment.clock.advance(milliseconds: Int64((seconds * 1000).rounded()))
        return answer(request.environment.clock)
    }

    /// Back to real time.
    static func reset(_ request: OperationRequest) throws -> JSONObject {
        try request.environment.clock.reset()
        return answer(request.environment.clock)
    }

    /// To `{"time": "<RFC 3339>"}`, not earlier than real time.
    static func set(_ request: OperationRequest) throws -> JSONObject {
        guard let text = request.body.object["time"]?.stringValue else {
            throw AuthError.invalid("INVALID_ARGUMENT : time (an RFC 3339 string such as 2030-01-01T00:00:00Z) is required.")
        }
        guard let time = RFC3339.parse(text) else {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : time must be an RFC 3339 date-time such as 2030-01-01T00:00:00Z or 2030-01-01T09:00:00+09:00, not \"\(text.prefix(64))\".")
        }
        try request.environment.clock.set(to: time)
        return answer(request.environment.clock)
    }

    private static func answer(_ clock: EmulatorClock) -> JSONObject {
        ["now": .string(clock.now().rfc3339), "offsetSeconds": .double(Double(clock.offset) / 1000)]
    }
}

/// RFC 3339 date-times as a caller writes them: `Z` or a `±HH:MM` offset, any fraction of a second
/// (kept to the millisecond). `Instant(rfc3339:)` reads only the UTC form the emulator writes.
enum RFC3339 {
    static func parse(_ text: String) -> Instant? {
        var body = Substring(text)
        var offsetMinutes: Int64 = 0
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
        } else {
            let zone = body.suffix(6)
            let bytes = Array(zone.utf8)
            guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
                let hours = Int64(String(zone.dropFirst().prefix(2))), let minutes = Int64(String(zone.suffix(2))),
                hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[0] == UInt8(ascii: "-") ? -1 : 1)
            body = body.dropLast(6)
        }
        // The date and time part, with at most three fraction digits, in the form Instant reads.
        var utc = String(body)
        if let dot = utc.firstIndex(of: ".") {
            let fraction = utc[utc.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return nil }
            utc = String(utc[..<dot]) + "." + fraction.prefix(3)
        }
        // Writing it back must give the same date and time: that refuses 25:00, February 30 and the like.
        guard utc.utf8.count >= 19, let local = Instant(rfc3339: utc + "Z"), local.rfc3339.prefix(19) == utc.prefix(19)
        else { return nil }
        return Instant(millisecondsSinceEpoch: local.millisecondsSinceEpoch - offsetMinutes * 60_000)
    }
}
