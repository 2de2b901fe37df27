/// Apple's private email relay, simulated (DESIGN §2.4): mail to a relay address reaches the real
/// address behind it only when every sender is registered with Apple (by address or domain), its
/// domain passes SPF, the user still forwards and the address is under its daily limit; otherwise
/// it bounces, and the outbox says why.
enum PrivateRelay {
    static let domains: Set<String> = ["privaterelay.appleid.com", "private.icloud.com"]

    static func isRelayAddress(_ address: String) -> Bool {
        if let isRelay = isASCIIRelayAddress(address) { return isRelay }
        return EmailAddress.domain(of: address).map { domains.contains($0.lowercased()) } ?? false
    }

    /// The same answer by bytes for an ASCII address (every one the benchmark and nearly every
    /// test sends): the domain after the last `@`, lower-cased. Nil for other text, whose
    /// Characters and Unicode case mapping the general form above handles. Finding the last `@`
    /// by Characters was most of the 5.7k instructions this check cost every sendOobCode.
    private static func isASCIIRelayAddress(_ address: String) -> Bool? {
        var address = address
        return address.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at + 1 < bytes.count else { return false }
            let domain = bytes[(at + 1)...].map { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return asciiDomains.contains(domain)
        }
    }

    private static let asciiDomains: Set<[UInt8]> = Set(domains.map { Array($0.utf8) })

    /// Where mail from `senders` (the From address, and for SMTP the envelope's return path) to
    /// `recipient` ends up at `now`.
    static func delivery(to recipient: String, from senders: [String], projectId: String, now: Instant,
                         in store: StoreTransaction) throws -> Delivery {
        guard isRelayAddress(recipient) else { return Delivery(status: .delivered) }
        guard let entry = try store.fakeProviders.relayAddress(recipient.lowercased()) else {
            return Delivery(
                status: .bounced,
                reason: "Unknown relay address: Apple's private relay never handed out \(recipient) (550 5.1.1 bad mailbox name).")
        }
        let settings = try store.outbox.relaySettings(projectId: projectId)
        if let sender = senders.first(where: { !settings.isRegistered($0) }) {
            return Delivery(
                status: .bounced,
                reason: "Sender not registered: \(sender) is not among this project's senders registered for Sign in with Apple's private email relay (550 5.1.1 bad mailbox name).")
        }
        if let sender = senders.first(where: settings.failsSPF) {
            return Delivery(
                status: .bounced,
                reason: "SPF failed: \(EmailAddress.domain(of: sender) ?? sender) does not pass SPF for the sending server, so Apple refuses the mail (550 5.7.23, simulated by spfFailingDomains).")
        }
        guard entry.forwarding else {
            return Delivery(
                status: .bounced, reason: "Forwarding off: the user stopped forwarding mail from this app to \(entry.forwardTo).")
        }
        let relayedToday = try store.outbox.relayedCount(to: recipient, since: now.adding(seconds: -86_400))
        guard relayedToday < settings.dailyLimit else {
            return Delivery(
                status: .bounced,
                reason: "Daily limit reached: \(recipient) already received \(relayedToday) messages in the last 24 hours (limit \(settings.dailyLimit)).")
        }
        return Delivery(status: .relayed, forwardedTo: entry.forwardTo)
    }
}
