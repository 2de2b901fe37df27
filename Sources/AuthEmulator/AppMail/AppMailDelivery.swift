import MailMessage
import SMTPServer

/// Stores the app's own mail, received by the SMTP listener, in the outbox (DESIGN §3, SMTP): one
/// message per envelope recipient, each with its own delivery through the simulated Apple relay,
/// all in one transaction that has committed (durably, with `--data`) before the `250` is sent.
struct AppMailDelivery: Sendable {
    let environment: AuthEnvironment

    func deliver(_ envelope: SMTPSession.Envelope, raw: [UInt8]) -> SMTPSession.DeliveryResult {
        let projectId = project(of: envelope)
        let message = MailMessage(raw: raw)
        let details = AppMailDetails(envelope: (envelope.mailFrom, envelope.recipients), message: message, rawSize: raw.count)
        let headerFrom = message.addresses("From").first
        let from = headerFrom ?? envelope.mailFrom
        // Apple checks the From address and the return path (the envelope sender) alike.
        let senders = Array(Set([headerFrom, envelope.mailFrom.isEmpty ? nil : envelope.mailFrom].compactMap { $0 })).sorted()
        let scope = UserScope(projectId: projectId, tenantId: nil)
        do {
            let stored = try environment.store.write { store in
                let now = environment.clock.now()
                let rawSourceId = try store.outbox.insertRawSource(raw)
                let messages = try envelope.recipients.map { recipient in
                    try store.outbox.insert(OutboxMessage(
                        scope: scope, from: from, to: EmailAddress.canonical(recipient), subject: message.subject ?? "", text: message.text ?? "",
                        html: message.html ?? "", requestType: "", oobCode: nil, oobLink: nil, appLink: nil,
                        continueUrl: nil, createdAt: now,
                        delivery: try PrivateRelay.delivery(to: recipient, from: senders, projectId: projectId, now: now, in: store),
                        source: .smtp, mailDetails: details, rawSourceId: rawSourceId))
                }
                store.connection.afterCommit {
                    for stored in messages { environment.logger.info(Self.logLine(stored)) }
                    environment.outboxWaiters.wake(projectId: projectId)
                }
                return messages
            }
            return .stored(id: stored.map { String($0.id) }.joined(separator: ","))
        } catch {
            environment.logger.log(.error, "SMTP: storing a message from \(envelope.mailFrom) failed: \(error)")
            return .failed(reason: "the outbox could not store it")
        }
    }

    /// `project:<id>` as the AUTH user name picks the project; anything else is the default one.
    private func project(of envelope: SMTPSession.Envelope) -> String {
        guard let user = envelope.authenticatedUser, user.hasPrefix("project:") else { return environment.defaultProjectId }
        let id = String(user.dropFirst("project:".count))
        guard let valid = try? CommandLineOptions.projectId(id) else {
            environment.logger.warning("SMTP: AUTH user \(user) names no valid project; the message goes to \(environment.defaultProjectId)")
            return environment.defaultProjectId
        }
        return valid
    }

    private static func logLine(_ message: OutboxMessage) -> String {
        var line = "SMTP: \(message.from) → \(message.to) \"\(message.subject)\": \(message.delivery.status.rawValue)"
        if let forwardedTo = message.delivery.forwardedTo { line += " to \(forwardedTo)" }
        if let reason = message.delivery.reason { line += " (\(reason))" }
        return line
    }
}
