import JOSE
import JSON
import SQLiteStore

/// The fake identity providers' state: keys, their own users, the opaque tokens and Apple codes
/// they issued, Apple's revocations and relay addresses. Shared by every project, like a real
/// provider is.
struct FakeProviderRepository {
    let connection: SQLiteConnection

    // MARK: Keys

    struct KeyRow {
        let kid: String
        let providerId: String
        let privateKeyPEM: String
        let createdAt: Instant
        let isRetired: Bool
    }

    func keys() throws -> [KeyRow] {
        try connection.query("SELECT kid, provider_id, private_key_pem, created_at, retired_at FROM idp_keys").map { row in
            KeyRow(
                kid: row[0].text ?? "", providerId: row[1].text ?? "", privateKeyPEM: row[2].text ?? "",
                createdAt: Instant(millisecondsSinceEpoch: row[3].integer ?? 0), isRetired: row[4].integer != nil)
        }
    }

    /// Adds a key. Without `retiringActive`, a provider that already has an active key of this
    /// algorithm keeps it and the new one is dropped (a concurrent first use made one already).
    /// A provider id new to the keys table is refused once `limits.providers` ids hold keys; after
    /// the insert, retired keys beyond `limits.keysPerProvider` of this provider and algorithm are
    /// dropped, oldest first. Both checks run in this transaction, so concurrent calls cannot pass
    /// the caps together.
    func insertKey(
        _ generated: ProviderKeyring.GeneratedKey, providerId: String, now: Instant, retiringActive: Bool,
        limits: FakeProviderLimits
    ) throws {
        let algorithm = generated.key.algorithm.rawValue
        let isKnown = try connection.queryFirst("SELECT 1 FROM idp_keys WHERE provider_id = ? LIMIT 1", [.text(providerId)]) != nil
        if !isKnown {
            let providers = try connection.queryFirst("SELECT COUNT(DISTINCT provider_id) FROM idp_keys")?[0].integer ?? 0
            if providers >= Int64(limits.providers) { throw FakeProviderLimits.tooManyProviders(limits.providers) }
        }
        if retiringActive {
            try connection.execute(
                "UPDATE idp_keys SET retired_at = ? WHERE provider_id = ? AND algorithm = ? AND retired_at IS NULL",
                [.integer(now.millisecondsSinceEpoch), .text(providerId), .text(algorithm)])
        }
        try connection.execute(
            """
            INSERT INTO idp_keys (kid, provider_id, algorithm, private_key_pem, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """,
            [
                .text(generated.kid), .text(providerId), .text(algorithm), .text(try generated.key.privateKeyPEM()),
                .integer(now.millisecondsSinceEpoch),
            ])
        // The active key first, then the newest retired ones (rowid breaks ties within a millisecond).
        try connection.execute(
            """
            DELETE FROM idp_keys WHERE provider_id = ?1 AND algorithm = ?2 AND retired_at IS NOT NULL AND kid NOT IN (
                SELECT kid FROM idp_keys WHERE provider_id = ?1 AND algorithm = ?2
                ORDER BY retired_at IS NULL DESC, created_at DESC, rowid DESC LIMIT ?3)
            """,
            [.text(providerId), .text(algorithm), .integer(Int64(limits.keysPerProvider))])
    }

    // MARK: The providers' own users

    struct Account: Equatable {
        var providerId: String
        var sub: String
        var email: String?
        var name: String?
        var picture: String?
        var hidesEmail = false
    }

    /// Records or refreshes a provider user (the latest profile wins).
    func saveAccount(_ account: Account, now: Instant) throws {
        try connection.execute(
            """
            INSERT INTO idp_accounts (provider_id, sub, email, name, picture, hide_email, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (provider_id, sub) DO UPDATE SET email = excluded.email, name = excluded.name,
                picture = excluded.picture, hide_email = excluded.hide_email
            """,
            [
                .text(account.providerId), .text(account.sub), SQLiteValue(account.email), SQLiteValue(account.name),
                SQLiteValue(account.picture), SQLiteValue(account.hidesEmail), .integer(now.millisecondsSinceEpoch),
            ])
    }

    func accounts(of providerId: String, limit: Int) throws -> [Account] {
        try accounts(where: "provider_id = ? ORDER BY created_at, sub LIMIT ?", [.text(providerId), .integer(Int64(limit))])
    }

    func account(of providerId: String, sub: String) throws -> Account? {
        try accounts(where: "provider_id = ? AND sub = ?", [.text(providerId), .text(sub)]).first
    }

    private func accounts(where clause: String, _ arguments: [SQLiteValue]) throws -> [Account] {
        try connection.query(
            "SELECT provider_id, sub, email, name, picture, hide_email FROM idp_accounts WHERE \(clause)", arguments
        ).map { row in
            Account(
                providerId: row[0].text ?? "", sub: row[1].text ?? "", email: row[2].text, name: row[3].text,
                picture: row[4].text, hidesEmail: row[5].bool ?? false)
        }
    }

    // MARK: Opaque access tokens

    struct AccessToken {
        let providerId: String
        let sub: String
        let claims: JSONObject
        let expiresAt: Instant
    }

    func insertAccessToken(_ token: String, _ record: AccessToken) throws {
        try connection.execute(
            "INSERT INTO idp_access_tokens (token, provider_id, sub, claims, expires_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(token), .text(record.providerId), .text(record.sub), .text(record.claims.compactString),
                .integer(record.expiresAt.millisecondsSinceEpoch),
            ])
    }

    func accessToken(_ token: String) throws -> AccessToken? {
        guard
            let row = try connection.queryFirst(
                "SELECT provider_id, sub, claims, expires_at FROM idp_access_tokens WHERE token = ?", [.text(token)])
        else { return nil }
        return AccessToken(
            providerId: row[0].text ?? "", sub: row[1].text ?? "",
            claims: row[2].text.flatMap { try? JSONValue(parsing: $0).objectValue } ?? JSONObject(),
            expiresAt: Instant(millisecondsSinceEpoch: row[3].integer ?? 0))
    }

    // MARK: Apple authorization codes and their revocation

    struct AuthorizationCode {
        let sub: String
        let audience: String
        let issuedAt: Instant
    }

    func insertAuthorizationCode(_ code: String, _ record: AuthorizationCode) throws {
        try connection.execute(
            "INSERT INTO apple_authorization_codes (code, sub, audience, issued_at) VALUES (?, ?, ?, ?)",
            [.text(code), .text(record.sub), .text(record.audience), .integer(record.issuedAt.millisecondsSinceEpoch)])
    }

    func authorizationCode(_ code: String) throws -> AuthorizationCode? {
        guard
            let row = try connection.queryFirst(
                "SELECT sub, audience, issued_at FROM apple_authorization_codes WHERE code = ?", [.text(code)])
        else { return nil }
        return AuthorizationCode(
            sub: row[0].text ?? "", audience: row[1].text ?? "",
            issuedAt: Instant(millisecondsSinceEpoch: row[2].integer ?? 0))
    }

    /// What `accounts:revokeToken` revoked: an authorization code (the Apple SDK's) or an access
    /// token (the JS SDK's); the raw values are `revokeToken`'s `tokenType` names.
    enum RevokedToken: String {
        case authorizationCode = "CODE"
        case accessToken = "ACCESS_TOKEN"

        /// As a person says it.
        var name: String { self == .authorizationCode ? "authorization code" : "access token" }
    }

    struct Revocation {
        /// The revoked authorization code or access token.
        let code: String
        let tokenType: RevokedToken
        let sub: String
        let projectId: String
        let revokedAt: Instant
    }

    func insertRevocation(_ revocation: Revocation) throws {
        try connection.execute(
            "INSERT INTO apple_revocations (code, token_type, sub, project_id, revoked_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(revocation.code), .text(revocation.tokenType.rawValue), .text(revocation.sub),
                .text(revocation.projectId), .integer(revocation.revokedAt.millisecondsSinceEpoch),
            ])
    }

    func isRevoked(_ token: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM apple_revocations WHERE code = ?", [.text(token)]) != nil
    }

    /// A reset's: the revocations the target's projects made (the codes themselves stay the provider's).
    func deleteRevocations(_ target: ResetTarget) throws {
        try connection.deleteRows(from: "apple_revocations", of: target)
    }

    func revocations() throws -> [Revocation] {
        try connection.query(
            "SELECT code, token_type, sub, project_id, revoked_at FROM apple_revocations ORDER BY rowid"
        ).map { row in
            Revocation(
                code: row[0].text ?? "", tokenType: row[1].text.flatMap(RevokedToken.init) ?? .authorizationCode,
                sub: row[2].text ?? "", projectId: row[3].text ?? "",
                revokedAt: Instant(millisecondsSinceEpoch: row[4].integer ?? 0))
        }
    }

    // MARK: Apple's private email relay

    struct RelayAddress: Equatable {
        let address: String
        let sub: String
        let audience: String
        var forwardTo: String
        var forwarding: Bool
    }

    /// The relay address of (`sub`, `audience`), made on first use with `proposed`; a later call
    /// keeps the address and points it at the latest real email.
    func relayAddress(sub: String, audience: String, forwardTo: String, proposed: String, now: Instant) throws -> RelayAddress {
        try connection.execute(
            """
            INSERT INTO apple_relay_addresses (address, sub, audience, forward_to, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (sub, audience) DO UPDATE SET forward_to = excluded.forward_to
            """,
            [.text(proposed), .text(sub), .text(audience), .text(forwardTo), .integer(now.millisecondsSinceEpoch)])
        return try relayAddresses(where: "sub = ? AND audience = ?", [.text(sub), .text(audience)])[0]
    }

    func relayAddresses() throws -> [RelayAddress] {
        try relayAddresses(where: "1", [])
    }

    func relayAddress(_ address: String) throws -> RelayAddress? {
        try relayAddresses(where: "address = ?", [.text(address)]).first
    }

    func setForwarding(_ forwarding: Bool, for address: String) throws {
        try connection.execute(
            "UPDATE apple_relay_addresses SET forwarding = ? WHERE address = ?", [SQLiteValue(forwarding), .text(address)])
    }

    private func relayAddresses(where clause: String, _ arguments: [SQLiteValue]) throws -> [RelayAddress] {
        try connection.query(
            """
            SELECT address, sub, audience, forward_to, forwarding FROM apple_relay_addresses WHERE \(clause)
            ORDER BY created_at, address
            """, arguments
        ).map { row in
            RelayAddress(
                address: row[0].text ?? "", sub: row[1].text ?? "", audience: row[2].text ?? "",
                forwardTo: row[3].text ?? "", forwarding: row[4].bool ?? true)
        }
    }
}
