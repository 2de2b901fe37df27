import JOSE

/// An outbox email as RFC 5322 source (`…/messages/{id}.eml`): a MIME multipart/alternative with
/// the text and HTML bodies, CRLF line ends, header lines folded to 78 characters, non-ASCII header
/// text as RFC 2047 encoded words and bodies in quoted-printable UTF-8. The emulator's own facts
/// (request type, delivery) ride in `X-Auth-Emulator-*` headers.
enum MessageSource {
    static func render(_ message: OutboxMessage) -> String {
        let boundary = "=_auth-emulator-\(message.id)"  // "=_" cannot occur in quoted-printable text
        var headers: [(String, String)] = [
            ("Date", rfc5322Date(message.createdAt)),
            ("From", message.from),
            ("To", message.to),
            ("Subject", message.subject),
            ("Message-ID", "<\(message.id).\(message.scope.projectId.utf8.allSatisfy(isAtomText) ? message.scope.projectId : "project")@auth-emulator.invalid>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "multipart/alternative; boundary=\"\(boundary)\""),
            ("X-Auth-Emulator-Request-Type", message.requestType),
            ("X-Auth-Emulator-Delivery", message.delivery.status.rawValue),
        ]
        if let tenant = message.scope.tenantId { headers.append(("X-Auth-Emulator-Tenant", tenant)) }
        if let forwardedTo = message.delivery.forwardedTo { headers.append(("X-Auth-Emulator-Forwarded-To", forwardedTo)) }
        if let reason = message.delivery.reason { headers.append(("X-Auth-Emulator-Bounce-Reason", reason)) }

        var source = headers.map { folded(name: $0.0, value: $0.1) }.joined()
        source += "\r\n"
        for (type, body) in [("text/plain", message.text), ("text/html", message.html)] {
            source += "--\(boundary)\r\n"
            source += "Content-Type: \(type); charset=utf-8\r\n"
            source += "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
            source += quotedPrintable(body) + "\r\n"
        }
        source += "--\(boundary)--\r\n"
        return source
    }

    // MARK: Headers

    /// Headers that hold addresses: encoded words are not allowed in an address, so a non-ASCII
    /// one is written as UTF-8 (RFC 6532), and an address does not fold.
    private static let addressHeaders: Set<String> = ["From", "To"]

    /// `Name: value` folded at spaces to 78 characters; other than in an address, a value with
    /// non-ASCII or control characters becomes encoded words. CR and LF never reach a header.
    static func folded(name: String, value: String) -> String {
        let flat = headerText(value)
        if addressHeaders.contains(name) { return "\(name): \(flat)\r\n" }
        let needsEncoding = !flat.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
            || flat.contains("=?")
        let words = needsEncoding ? encodedWords(flat, firstLineRoom: 78 - name.utf8.count - 2) : flat.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        var line = "\(name):"
        for word in words {
            if line.utf8.count + 1 + word.utf8.count > 78, line.utf8.count > name.utf8.count + 1 {
                lines.append(line)
                line = ""
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words of at most 75 characters, split between whole characters; the
    /// first fits in `firstLineRoom` characters, beside the header's name.
    static func encodedWords(_ text: String, firstLineRoom: Int = 75) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        // 3 bytes → 4 base64 characters, plus the 12 of `=?UTF-8?B?` and `?=`: 45 bytes make 72.
        let firstBudget = max(6, (min(firstLineRoom, 75) - 12) / 4 * 3)
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > (words.isEmpty ? firstBudget : 45), !chunk.isEmpty {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        // RFC 2047's "B" is standard base64 with padding: base64url with two letters swapped.
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return "=?UTF-8?B?\(text)?="
    }

    private static func headerText(_ value: String) -> String {
        String(value.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
    }

    private static func isAtomText(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// `Tue, 01 Dec 2026 20:12:17 +0000`.
    static func rfc5322Date(_ instant: Instant) -> String {
        let iso = Array(instant.rfc3339)  // 2026-12-01T20:12:17.000Z
        let days = instant.millisecondsSinceEpoch >= 0
            ? instant.millisecondsSinceEpoch / 86_400_000 : (instant.millisecondsSinceEpoch - 86_399_999) / 86_400_000
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let month = months[(Int(String(iso[5...6])) ?? 1) - 1]
        return "\(weekday), \(String(iso[8...9])) \(month) \(String(iso[0...3])) \(String(iso[11...18])) +0000"
    }

    // MARK: Bodies

    /// Quoted-printable (RFC 2045 §6.7) of UTF-8 text: line breaks become CRLF, lines are soft-broken
    /// before 76 characters, `=` and bytes outside printable ASCII are escaped, as is a space or tab
    /// that ends a line.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        let lines = text.replacingCRLF.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { output += [13, 10] }
            var length = 0
            let bytes = Array(line.utf8)
            for (position, byte) in bytes.enumerated() {
                let isLast = position == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !isLast)
                let piece: [UInt8] = literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                // Leave room for the soft break's "=": a line is at most 76 characters.
                if length + piece.count > 75 {
                    output += [UInt8(ascii: "="), 13, 10]
                    length = 0
                }
                output += piece
                length += piece.count
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension String {
    /// `\r\n` and lone `\r` as `\n`, so every line break is written once as CRLF.
    fileprivate var replacingCRLF: String {
        var result = ""
        var previousWasCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                result.unicodeScalars.append("\n")
                previousWasCR = true
                continue
            }
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
