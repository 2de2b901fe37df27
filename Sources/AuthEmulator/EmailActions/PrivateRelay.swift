/// Apple's private email relay, simulated (DESIGN §2.4): mail to a relay address reaches the real
/// address behind it only when the project's sender is registered with Apple and the user still
/// forwards; otherwise it bounces, and the outbox says why.
enum PrivateRelay {
    static let domains: Set<String> = ["privaterelay.appleid.com", "private.icloud.com"]

    static func isRelayAddress(_ address: String) -> Bool {
        guard let at = address.lastIndex(of: "@") else { return false }
        return domains.contains(address[address.index(after: at)...].lowercased())
    }

    /// Where mail from `sender` to `recipient` ends up.
    static func delivery(to recipient: String, from sender: String, projectId: String, in store: StoreTransaction) throws -> Delivery {
        guard isRelayAddress(recipient) else { return Delivery(status: .delivered) }
        guard let entry = try store.fakeProviders.relayAddress(recipient.lowercased()) else {
            return Delivery(
                status: .bounced,
                reason: "Unknown relay address: Apple's private relay never handed out \(recipient) (550 5.1.1 bad mailbox name).")
        }
        let senders = try store.outbox.registeredSenders(projectId: projectId)
        guard senders.contains(where: { $0.lowercased() == sender.lowercased() }) else {
            return Delivery(
                status: .bounced,
                reason: "Sender not registered: \(sender) is not among this project's senders registered for Sign in with Apple's private email relay (550 5.1.1 bad mailbox name).")
        }
        guard entry.forwarding else {
            return Delivery(
                status: .bounced, reason: "Forwarding off: the user stopped forwarding mail from this app to \(entry.forwardTo).")
        }
        return Delivery(status: .relayed, forwardedTo: entry.forwardTo)
    }
}
