#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// One SMTP conversation as a state machine (RFC 5321, with RFC 1870 SIZE, RFC 6152 8BITMIME,
/// RFC 2920 PIPELINING, RFC 2034 enhanced status codes and RFC 4954 AUTH PLAIN/LOGIN): lines in,
/// replies out. It knows nothing of sockets, so every rule is testable line by line, and nothing
/// of the emulator: a finished message goes to the `deliver` closure, which must store it durably
/// before it returns, because the `250` that follows tells the client the message is safe.
public struct SMTPSession {
    /// What a session hands over once DATA ends: the envelope and the message as received
    /// (dot-stuffing undone, CRLF line ends).
    public struct Envelope: Sendable, Equatable {
        /// The SMTP user name given with AUTH, if any (the emulator reads `project:<id>` from it).
        public var authenticatedUser: String?
        /// The reverse path; empty for the null sender `<>`.
        public var mailFrom: String
        public var recipients: [String]
        public var clientName: String
    }

    /// What `deliver` answers: the id the `250` reply names, or a refusal that becomes a
    /// temporary failure (`451`), so the client keeps the message and tries again.
    public enum DeliveryResult: Sendable, Equatable {
        case stored(id: String)
        case failed(reason: String)
    }

    public struct Output: Equatable {
        public var replies: [String] = []
        public var close = false
    }

    private enum Phase {
        case connected
        case ready
        case mail
        case data
        case authPlain
        case authLoginUser
        case authLoginPassword(user: String)
    }

    public let limits: SMTPLimits
    private let serverName: String
    private let deliver: (Envelope, [UInt8]) -> DeliveryResult
    private var phase = Phase.connected
    private var clientName = ""
    private var authenticatedUser: String?
    private var mailFrom = ""
    private var recipients: [String] = []
    private var message: [UInt8] = []
    private var messageTooLarge = false

    public init(
        serverName: String, limits: SMTPLimits, deliver: @escaping (Envelope, [UInt8]) -> DeliveryResult
    ) {
        self.serverName = serverName
        self.limits = limits
        self.deliver = deliver
    }

    /// The banner a client waits for before its first command.
    public var greeting: String { "220 \(serverName) ESMTP auth-emulator ready" }

    /// True while the session reads message text, whose lines may be longer than commands'.
    public var isReadingData: Bool {
        if case .data = phase { return true }
        return false
    }

    /// Handles one line received without its CRLF.
    public mutating func receive(line: [UInt8]) -> Output {
        switch phase {
        case .data: return receiveData(line: line)
        case .authPlain: return finishAuthPlain(response: line)
        case .authLoginUser:
            guard let user = Self.decodeBase64Text(line) else { return cancelAuth(line) }
            phase = .authLoginPassword(user: user)
            return Output(replies: ["334 UGFzc3dvcmQ6"])  // "Password:"
        case .authLoginPassword(let user):
            guard Self.decodeBase64Text(line) != nil else { return cancelAuth(line) }
            return authenticated(as: user)
        case .connected, .ready, .mail:
            return receiveCommand(String(decoding: line, as: UTF8.self))
        }
    }

    /// A text line over the limit was dropped by the reader: the message is refused at its end.
    public mutating func dropOversizedLine() {
        messageTooLarge = true
        message = []
    }

    /// The reply to a command line longer than the limit (the reader drops the rest of it).
    public static let lineTooLong = "500 5.5.6 Line too long"

    // MARK: - Commands

    private mutating func receiveCommand(_ line: String) -> Output {
        let (verb, argument) = Self.split(line)
        switch verb {
        case "EHLO", "HELO":
            guard !argument.isEmpty else { return reply("501 5.5.4 \(verb) needs a domain or address literal") }
            clientName = argument
            resetTransaction()
            phase = .ready
            guard verb == "EHLO" else { return reply("250 \(serverName)") }
            return Output(replies: [
                "250-\(serverName) greets \(argument)",
                "250-PIPELINING",
                "250-SIZE \(limits.maxMessageBytes)",
                "250-8BITMIME",
                "250-SMTPUTF8",
                "250-ENHANCEDSTATUSCODES",
                "250 AUTH PLAIN LOGIN",
            ])
        case "MAIL": return mail(argument)
        case "RCPT": return recipient(argument)
        case "DATA":
            guard argument.isEmpty else { return reply("501 5.5.4 DATA takes no argument") }
            guard case .mail = phase else {
                return reply(isGreeted ? "503 5.5.1 Send MAIL FROM first" : "503 5.5.1 Send EHLO or HELO first")
            }
            guard !recipients.isEmpty else { return reply("503 5.5.1 Send RCPT TO first") }
            phase = .data
            message.removeAll(keepingCapacity: true)
            messageTooLarge = false
            return reply("354 End data with <CR><LF>.<CR><LF>")
        case "RSET":
            resetTransaction()
            if isGreeted { phase = .ready }
            return reply("250 2.0.0 Ok")
        case "NOOP": return reply("250 2.0.0 Ok")
        case "QUIT": return Output(replies: ["221 2.0.0 Bye"], close: true)
        case "AUTH": return auth(argument)
        case "VRFY": return reply("252 2.5.2 Cannot VRFY a user, but will accept mail for them")
        case "HELP": return reply("214 2.0.0 Commands: EHLO HELO MAIL RCPT DATA RSET NOOP QUIT AUTH VRFY HELP")
        case "STARTTLS": return reply("502 5.5.1 STARTTLS is not offered: the emulator speaks plain SMTP on loopback")
        case "": return reply("500 5.5.2 Empty command")
        default: return reply("500 5.5.2 Command not recognized: \(verb.prefix(16))")
        }
    }

    private var isGreeted: Bool {
        if case .connected = phase { return false }
        return true
    }

    private mutating func mail(_ argument: String) -> Output {
        guard isGreeted else { return reply("503 5.5.1 Send EHLO or HELO first") }
        guard case .ready = phase else { return reply("503 5.5.1 Sender already given; send RSET to start over") }
        guard let (path, parameters) = Self.path(after: "FROM:", in: argument) else {
            return reply("501 5.5.4 Syntax: MAIL FROM:<address> [SIZE=n] [BODY=7BIT|8BITMIME]")
        }
        guard path.isEmpty || SMTPAddress.isPlausible(path) else {
            return reply("553 5.1.7 Bad sender address syntax: \(path.prefix(80))")
        }
        for parameter in parameters {
            let (key, value) = Self.keyValue(parameter)
            switch key {
            case "SIZE":
                guard let declared = Int(value), declared >= 0 else { return reply("501 5.5.4 SIZE needs a number of bytes") }
                guard declared <= limits.maxMessageBytes else {
                    return reply("552 5.3.4 Message size exceeds the limit of \(limits.maxMessageBytes) bytes")
                }
            case "BODY":
                guard value == "7BIT" || value == "8BITMIME" else { return reply("501 5.5.4 BODY is 7BIT or 8BITMIME") }
            case "SMTPUTF8", "AUTH", "RET", "ENVID":
                break
            default:
                return reply("555 5.5.4 Unsupported MAIL parameter: \(key.prefix(32))")
            }
        }
        mailFrom = path
        recipients = []
        phase = .mail
        return reply("250 2.1.0 Sender ok")
    }

    private mutating func recipient(_ argument: String) -> Output {
        guard case .mail = phase else {
            return reply(isGreeted ? "503 5.5.1 Send MAIL FROM first" : "503 5.5.1 Send EHLO or HELO first")
        }
        guard let (path, parameters) = Self.path(after: "TO:", in: argument), parameters.allSatisfy({ Self.keyValue($0).key == "NOTIFY" || Self.keyValue($0).key == "ORCPT" }) else {
            return reply("501 5.5.4 Syntax: RCPT TO:<address>")
        }
        guard SMTPAddress.isPlausible(path) else { return reply("501 5.1.3 Bad recipient address syntax: \(path.prefix(80))") }
        guard recipients.count < limits.maxRecipients else {
            return reply("452 4.5.3 Too many recipients: at most \(limits.maxRecipients) per message")
        }
        recipients.append(path)
        return reply("250 2.1.5 Recipient ok")
    }

    private mutating func auth(_ argument: String) -> Output {
        guard isGreeted else { return reply("503 5.5.1 Send EHLO first") }
        guard case .ready = phase else { return reply("503 5.5.1 AUTH is not allowed during a mail transaction") }
        guard authenticatedUser == nil else { return reply("503 5.5.1 Already authenticated") }
        let (mechanism, initial) = Self.split(argument)
        switch mechanism {
        case "PLAIN":
            guard !initial.isEmpty else {
                phase = .authPlain
                return reply("334 ")
            }
            return finishAuthPlain(response: Array(initial.utf8))
        case "LOGIN":
            guard !initial.isEmpty else {
                phase = .authLoginUser
                return reply("334 VXNlcm5hbWU6")  // "Username:"
            }
            guard let user = Self.decodeBase64Text(Array(initial.utf8)) else { return reply("501 5.5.2 Cannot decode the AUTH response") }
            phase = .authLoginPassword(user: user)
            return reply("334 UGFzc3dvcmQ6")
        default:
            return reply("504 5.5.4 Unrecognized authentication mechanism; use PLAIN or LOGIN")
        }
    }

    /// AUTH PLAIN's response is base64 of `authzid NUL authcid NUL password` (RFC 4616); any
    /// password is accepted, as a mail catcher does, and the user name is kept.
    private mutating func finishAuthPlain(response: [UInt8]) -> Output {
        guard response != [UInt8(ascii: "*")] else { return cancelAuth(response) }
        guard let decoded = Self.base64(response) else {
            phase = .ready
            return reply("501 5.5.2 Cannot decode the AUTH PLAIN response")
        }
        let fields = decoded.split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count == 3 else {
            phase = .ready
            return reply("501 5.5.2 AUTH PLAIN wants authzid NUL user NUL password")
        }
        return authenticated(as: String(decoding: fields[1], as: UTF8.self))
    }

    private mutating func authenticated(as user: String) -> Output {
        authenticatedUser = user
        phase = .ready
        return reply("235 2.7.0 Authentication successful")
    }

    private mutating func cancelAuth(_ line: [UInt8]) -> Output {
        phase = .ready
        return reply(line == [UInt8(ascii: "*")] ? "501 5.7.0 Authentication cancelled" : "501 5.5.2 Cannot decode the AUTH response")
    }

    // MARK: - Message text

    private mutating func receiveData(line: [UInt8]) -> Output {
        if line == [UInt8(ascii: ".")] { return finishData() }
        // Dot-stuffing (RFC 5321 §4.5.2): a leading dot was doubled by the client.
        let text = line.first == UInt8(ascii: ".") ? line.dropFirst() : line[...]
        guard !messageTooLarge else { return Output() }
        if message.count + text.count + 2 > limits.maxMessageBytes {
            messageTooLarge = true
            message = []  // the rest is read and dropped: the client is still sending
            return Output()
        }
        message.append(contentsOf: text)
        message.append(contentsOf: [13, 10])
        return Output()
    }

    private mutating func finishData() -> Output {
        defer { resetTransaction(); phase = .ready }
        guard !messageTooLarge else {
            return reply("552 5.3.4 Message size exceeds the limit of \(limits.maxMessageBytes) bytes")
        }
        let envelope = Envelope(authenticatedUser: authenticatedUser, mailFrom: mailFrom, recipients: recipients, clientName: clientName)
        switch deliver(envelope, message) {
        case .stored(let id): return reply("250 2.0.0 Ok: queued as \(id)")
        case .failed(let reason): return reply("451 4.3.0 Message not stored, try again later: \(reason)")
        }
    }

    private mutating func resetTransaction() {
        mailFrom = ""
        recipients = []
        message = []
        messageTooLarge = false
    }

    private func reply(_ line: String) -> Output { Output(replies: [line]) }

    // MARK: - Parsing

    /// `VERB rest`: the verb upper-cased, the rest trimmed.
    private static func split(_ line: String) -> (String, String) {
        let trimmed = line.drop(while: { $0 == " " })
        guard let space = trimmed.firstIndex(of: " ") else { return (trimmed.uppercased(), "") }
        let rest = trimmed[trimmed.index(after: space)...].trimmingSpaces()
        return (trimmed[..<space].uppercased(), rest)
    }

    /// `FROM:<path> PARAM=VALUE …` (a space after the colon and a path without brackets are
    /// tolerated, as most servers do).
    private static func path(after keyword: String, in argument: String) -> (String, [String])? {
        guard argument.uppercased().hasPrefix(keyword) else { return nil }
        let rest = argument.dropFirst(keyword.count).drop(while: { $0 == " " })
        if rest.first == "<" {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let path = String(rest[rest.index(after: rest.startIndex)..<close])
            let parameters = rest[rest.index(after: close)...].split(separator: " ").map(String.init)
            return (Self.withoutSourceRoute(path), parameters)
        }
        let words = rest.split(separator: " ").map(String.init)
        guard let path = words.first else { return nil }
        return (path, Array(words.dropFirst()))
    }

    /// Drops an obsolete source route (`@relay1,@relay2:user@example.com`, RFC 5321 §4.1.2).
    private static func withoutSourceRoute(_ path: String) -> String {
        guard path.hasPrefix("@"), let colon = path.firstIndex(of: ":") else { return path }
        return String(path[path.index(after: colon)...])
    }

    private static func keyValue(_ parameter: String) -> (key: String, value: String) {
        guard let equals = parameter.firstIndex(of: "=") else { return (parameter.uppercased(), "") }
        return (parameter[..<equals].uppercased(), parameter[parameter.index(after: equals)...].uppercased())
    }

    private static func base64(_ line: [UInt8]) -> [UInt8]? {
        Data(base64Encoded: Data(line)).map { Array($0) }
    }

    private static func decodeBase64Text(_ line: [UInt8]) -> String? {
        guard line != [UInt8(ascii: "*")], let bytes = Self.base64(line) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// The address checks an SMTP server makes before it takes a path: enough to refuse what is
/// clearly not an address, not a full RFC 5321 grammar (the outbox shows what was given).
enum SMTPAddress {
    static func isPlausible(_ address: String) -> Bool {
        guard address.utf8.count <= 320, let at = address.lastIndex(of: "@") else {
            return address.lowercased() == "postmaster"
        }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        return !local.isEmpty && !domain.isEmpty && !address.contains(where: { $0 == " " || $0 == "<" || $0 == ">" || $0.isNewline })
    }
}
