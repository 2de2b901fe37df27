#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import MailMessage

/// A stored outbox message as the mail a real server would have sent: RFC 5322 headers and a
/// MIME body (multipart/alternative of text and HTML for an email, plain text for an SMS), for the
/// console's headers and raw-source tabs. The app's own mail (SMTP) shows its source as received.
struct ConsoleMessageSource {
    struct Header {
        let name: String
        let value: String
    }

    let headers: [Header]
    let text: String

    init(_ message: OutboxMessage, raw: [UInt8]? = nil) {
        if let raw {
            // The app's own mail: its headers and source as received, and where the relay sent it.
            let received = MailMessage(raw: raw).headers.fields.map { Header(name: $0.name, value: $0.value) }
            headers = received + Self.deliveryHeaders(message)
            text = String(decoding: raw, as: UTF8.self)
            return
        }
        let boundary = "auth-emulator-\(message.id)-alternative"
        let isEmail = !message.html.isEmpty
        var headers = [
            Header(name: "From", value: message.from), Header(name: "To", value: message.to),
            Header(name: "Subject", value: Self.encodedWord(message.subject)),
            Header(name: "Date", value: Self.date(message.createdAt)),
            Header(name: "Message-ID", value: "<\(message.id).\(message.scope.projectId)@auth-emulator.local>"),
            Header(name: "MIME-Version", value: "1.0"),
            Header(
                name: "Content-Type",
                value: isEmail ? "multipart/alternative; boundary=\"\(boundary)\"" : "text/plain; charset=utf-8"),
            Header(name: "X-Emulator-Request-Type", value: message.requestType),
            Header(name: "X-Emulator-Project", value: message.scope.projectId),
        ]
        if let tenant = message.scope.tenantId { headers.append(Header(name: "X-Emulator-Tenant", value: tenant)) }
        headers += Self.deliveryHeaders(message)
        self.headers = headers

        let head = headers.map { "\($0.name): \($0.value)" }.joined(separator: "\r\n")
        guard isEmail else {
            text = head + "\r\n\r\n" + Self.crlf(message.text) + "\r\n"
            return
        }
        let parts = [("text/plain", message.text), ("text/html", message.html)].map { type, body in
            "--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\(Self.crlf(body))\r\n"
        }
        text = head + "\r\n\r\n" + parts.joined() + "--\(boundary)--\r\n"
    }

    private static func deliveryHeaders(_ message: OutboxMessage) -> [Header] {
        var headers = [Header(name: "X-Emulator-Delivery", value: message.delivery.status.rawValue)]
        if let forwardedTo = message.delivery.forwardedTo {
            headers.append(Header(name: "X-Emulator-Forwarded-To", value: forwardedTo))
        }
        if let reason = message.delivery.reason { headers.append(Header(name: "X-Emulator-Delivery-Reason", value: reason)) }
        return headers
    }

    /// Line ends as mail has them.
    private static func crlf(_ text: String) -> String {
        text.replacingEvery("\r\n", with: "\n").replacingEvery("\n", with: "\r\n")
    }

    /// ASCII as it is; anything else as an RFC 2047 encoded word.
    static func encodedWord(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII }) else { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// RFC 5322's date, in UTC: `Tue, 01 Dec 2026 19:56:15 +0000`.
    static func date(_ instant: Instant) -> String {
        let text = Array(instant.rfc3339)
        func part(_ range: Range<Int>) -> String { String(text[range]) }
        let days = Int(instant.millisecondsSinceEpoch >= 0
            ? instant.millisecondsSinceEpoch / 86_400_000 : (instant.millisecondsSinceEpoch - 86_399_999) / 86_400_000)
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[(Int(part(5..<7)) ?? 1) - 1]
        return "\(weekday), \(part(8..<10)) \(month) \(part(0..<4)) \(part(11..<19)) +0000"
    }
}
