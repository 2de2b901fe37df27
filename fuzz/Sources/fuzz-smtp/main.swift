@testable import AuthEmulator
import FuzzSupport
import MailMessage
@testable import SMTPServer

// The SMTP listener's session and the MIME reader, end to end into the outbox of an in-memory
// emulator: the input is a conversation (lines a client sends, EHLO to QUIT), whose messages are
// read as MIME and stored through the relay. Any reply is fine; a trap, a hang or a reply that
// is not a three-digit code is a finding.
final class Outboxes {
    private var delivery: AppMailDelivery?
    private var served = 0

    /// A fresh emulator every so often, so the store (and libFuzzer's memory) stays small.
    func next() -> AppMailDelivery {
        if served % 2000 == 0 || delivery == nil {
            var configuration = AuthEmulator.Configuration()
            configuration.projectId = "demo-fuzz"
            let emulator = try! AuthEmulator(configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }))
            delivery = AppMailDelivery(environment: emulator.environment)
        }
        served += 1
        return delivery!
    }
}

let outboxes = Outboxes()

FuzzDriver.run { bytes in
    let input = FuzzInput(bytes)
    var limits = SMTPLimits()
    // Small limits on some inputs, so the size and recipient refusals are reached too.
    if input.selector & 1 == 1 {
        limits.maxMessageBytes = 512
        limits.maxRecipients = 3
    }
    let delivery = outboxes.next()
    var session = SMTPSession(serverName: "fuzz", limits: limits) { envelope, raw in
        let message = MailMessage(raw: raw)
        _ = (message.subject, message.text, message.html, message.attachments, message.addresses("To"))
        return delivery.deliver(envelope, raw: raw)
    }
    var reader = LineReader()
    reader.append(input.rest[...])
    while let line = reader.nextLine(limit: session.isReadingData ? limits.maxTextLineBytes : limits.maxCommandLineBytes) {
        guard case .line(let text) = line else {
            if session.isReadingData { session.dropOversizedLine() }
            continue
        }
        let output = session.receive(line: text)
        for reply in output.replies {
            let code = reply.prefix(3)
            FuzzDriver.require(code.count == 3 && code.allSatisfy(\.isNumber), "reply without a code: \(reply)")
        }
        if output.close { break }
    }
}
