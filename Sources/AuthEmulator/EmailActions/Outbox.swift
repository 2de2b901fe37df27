import Dispatch
import HTML
import JSON

/// Puts emails in the outbox: rendered from the template, routed through the relay, stored in the
/// caller's transaction, and announced (log line, waiting listeners) once it has committed.
struct Outbox {
    let transaction: AccountsTransaction

    struct Email {
        let type: OobRequestType
        let to: String
        var newEmail: String?
        var displayName: String?
        let code: OobCodeRecord
        let links: ActionLinks
    }

    @discardableResult
    func send(_ email: Email) throws -> OutboxMessage {
        let scope = transaction.scope
        let sender = EmailSender.defaultAddress(projectId: scope.projectId)
        // The link a person clicks opens the emulator, never a production host; an app that
        // handles the code itself reads the message's `appLink` instead.
        let link = email.links.oobLink
        let rendered = EmailTemplates.render(
            email.type,
            .init(
                appName: "project-\(scope.projectId)", email: email.code.email ?? email.to, newEmail: email.newEmail,
                displayName: email.displayName, link: link, requestedAt: transaction.now,
                lifetime: email.type.lifetimeDescription))
        let delivery = try PrivateRelay.delivery(
            to: email.to, from: [sender], projectId: scope.projectId, now: transaction.now, in: transaction.store)
        let message = try transaction.store.outbox.insert(
            OutboxMessage(
                scope: scope, from: sender, to: email.to, subject: rendered.subject, text: rendered.text, html: rendered.html,
                requestType: email.type.rawValue, oobCode: email.code.code, oobLink: email.links.oobLink,
                appLink: email.links.appLink, continueUrl: email.code.continueUrl, createdAt: transaction.now,
                delivery: delivery))
        let environment = transaction.environment
        transaction.store.connection.afterCommit {
            // Written only when info lines are logged (the autoclosure): below info, as bench/run
            // runs, building it was 3k instructions of every send.
            environment.logger.info(Self.consoleLine(email, link: email.links.oobLink, delivery: delivery))
            environment.outboxWaiters.wake(projectId: scope.projectId)
        }
        return message
    }

    /// An SMS with a verification code: stored like an email, `to` the phone number.
    @discardableResult
    func sendCode(_ code: String, to phoneNumber: String, purpose: VerificationPurpose) throws -> OutboxMessage {
        let scope = transaction.scope
        let text = "\(code) is your verification code for project-\(scope.projectId)."
        let message = try transaction.store.outbox.insert(
            OutboxMessage(
                scope: scope, from: "Firebase", to: phoneNumber, subject: "", text: text,
                html: HTML.page(title: "SMS", body: "<p>\(text)</p>").markup, requestType: purpose.rawValue, oobCode: code,
                oobLink: nil, appLink: nil, continueUrl: nil, createdAt: transaction.now, delivery: Delivery(status: .delivered)))
        let environment = transaction.environment
        let line = switch purpose {
        case .mfaEnrollment: "To enroll MFA with \(phoneNumber), use the code \(code)."
        case .mfaSignIn: "To sign in with MFA using \(phoneNumber), use the code \(code)."
        case .phoneSignIn, .totpEnrollment: "To verify the phone number \(phoneNumber), use the code \(code)."
        }
        transaction.store.connection.afterCommit {
            environment.logger.info(line)
            environment.outboxWaiters.wake(projectId: scope.projectId)
        }
        return message
    }

    /// The official emulator's console line, plus where the relay sent it.
    private static func consoleLine(_ email: Email, link: String, delivery: Delivery) -> String {
        let address = email.code.email ?? email.to
        var line: String
        switch email.type {
        case .emailSignIn: line = "To sign in as \(address), follow this link: \(link)"
        case .passwordReset: line = "To reset the password for \(address), follow this link: \(link)&newPassword=NEW_PASSWORD_HERE"
        case .verifyEmail: line = "To verify the email address \(address), follow this link: \(link)"
        case .verifyAndChangeEmail:
            line = "To verify and change the email address from \(address) to \(email.newEmail ?? ""), follow this link: \(link)"
        case .recoverEmail: line = "To reset your email address to \(address), follow this link: \(link)"
        }
        switch delivery.status {
        case .delivered: break
        case .relayed: line += " (relayed to \(delivery.forwardedTo ?? ""))"
        case .bounced: line += " (bounced: \(delivery.reason ?? ""))"
        }
        return line
    }
}

/// Requests waiting for outbox messages (`waitSeconds`). Each holds no thread: its connection is
/// suspended, and it is answered by the first of a matching message's commit or its deadline.
final class OutboxWaiters: Sendable {
    private struct Waiter: Sendable {
        let projectId: String
        /// Answers the request if messages now match; true when it did.
        let answerIfMatched: @Sendable () -> Bool
        /// Answers it as its deadline would (no message).
        let answerNothing: @Sendable () -> Void
    }

    private let waiting = Locked<[UInt64: Waiter]>([:])
    private let nextId = Locked<UInt64>(0)

    /// Registers first and checks after, so a message committed in between is never missed; the
    /// deadline (monotonic, never the emulator clock) answers with `onTimeout`.
    func wait(
        projectId: String, seconds: Double, answerIfMatched: @escaping @Sendable () -> Bool,
        onTimeout: @escaping @Sendable () -> Void
    ) {
        let id = nextId.withLock { id in
            id += 1
            return id
        }
        waiting.withLock { $0[id] = Waiter(projectId: projectId, answerIfMatched: answerIfMatched, answerNothing: onTimeout) }
        if answerIfMatched() {
            remove(id)
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard remove(id) else { return }
            onTimeout()
        }
    }

    /// Called after a message for `projectId` committed.
    func wake(projectId: String) {
        let candidates = waiting.withLock { $0.filter { $0.value.projectId == projectId } }
        for (id, waiter) in candidates where waiter.answerIfMatched() {
            remove(id)
        }
    }

    /// Called after a reset of `target` committed: its waits end now with no message, so a test's
    /// wait left open never answers with the next test's mail.
    func endWaits(of target: ResetTarget) {
        let ended = waiting.withLock { waiting in
            let ended = waiting.filter { target.includes($0.value.projectId) }
            for id in ended.keys { waiting.removeValue(forKey: id) }
            return ended.values
        }
        for waiter in ended { waiter.answerNothing() }
    }

    @discardableResult
    private func remove(_ id: UInt64) -> Bool {
        waiting.withLock { $0.removeValue(forKey: id) != nil }
    }

    var count: Int { waiting.withLock { $0.count } }
}
