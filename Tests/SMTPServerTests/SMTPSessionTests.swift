import Testing

@testable import SMTPServer

/// The conversation rules, line by line, without a socket.
@Suite struct SMTPSessionTests {
    /// A session whose deliveries are recorded; `failWith` makes the store refuse.
    final class Recorder: @unchecked Sendable {  // used from one test's thread only
        var delivered: [(SMTPSession.Envelope, String)] = []
        var failWith: String?
    }

    func session(_ recorder: Recorder, limits: SMTPLimits = SMTPLimits()) -> SMTPSession {
        SMTPSession(serverName: "test.local", limits: limits) { envelope, message in
            if let reason = recorder.failWith { return .failed(reason: reason) }
            recorder.delivered.append((envelope, String(decoding: message, as: UTF8.self)))
            return .stored(id: "m\(recorder.delivered.count)")
        }
    }

    /// Sends each line and returns the code of each reply (a multi-line reply counts once: its
    /// last line), in order; message text lines get no reply.
    func codes(_ session: inout SMTPSession, _ lines: [String]) -> [String] {
        lines.compactMap { session.receive(line: Array($0.utf8)).replies.last.map { String($0.prefix(3)) } }
    }

    @Test func aWholeTransactionIsDeliveredWithDotStuffingUndone() {
        let recorder = Recorder()
        var smtp = session(recorder)
        let replies = codes(&smtp, [
            "EHLO client.example", "MAIL FROM:<app@example.com> SIZE=100 BODY=8BITMIME",
            "RCPT TO:<a@example.com>", "RCPT TO:<b@privaterelay.appleid.com>", "DATA",
            "Subject: hi", "", "..leading dot", "body", ".", "QUIT",
        ])
        #expect(replies == ["250", "250", "250", "250", "354", "250", "221"])
        #expect(recorder.delivered.count == 1)
        let (envelope, message) = recorder.delivered[0]
        #expect(envelope.mailFrom == "app@example.com")
        #expect(envelope.recipients == ["a@example.com", "b@privaterelay.appleid.com"])
        #expect(envelope.clientName == "client.example")
        #expect(message == "Subject: hi\r\n\r\n.leading dot\r\nbody\r\n")
    }

    @Test func ehloAdvertisesTheExtensionsMailersLookFor() {
        var smtp = session(Recorder())
        let replies = smtp.receive(line: Array("EHLO x".utf8)).replies
        #expect(replies.first == "250-test.local greets x")
        #expect(replies.contains("250-PIPELINING"))
        #expect(replies.contains("250-SIZE 10485760"))
        #expect(replies.contains("250-8BITMIME"))
        #expect(replies.last == "250 AUTH PLAIN LOGIN")
    }

    @Test func commandsOutOfOrderAre503AndUnknownOnes500() {
        var smtp = session(Recorder())
        #expect(codes(&smtp, ["MAIL FROM:<a@example.com>"]) == ["503"])
        #expect(codes(&smtp, ["RCPT TO:<a@example.com>", "DATA", "BOGUS", ""]) == ["503", "503", "500", "500"])
        #expect(codes(&smtp, ["HELO x", "DATA", "RCPT TO:<a@example.com>"]) == ["250", "503", "503"])
        #expect(codes(&smtp, ["MAIL FROM:<a@example.com>", "MAIL FROM:<b@example.com>", "DATA"]) == ["250", "503", "503"])
        #expect(codes(&smtp, ["RSET", "RCPT TO:<a@example.com>", "NOOP", "VRFY a", "STARTTLS"]) == ["250", "503", "250", "252", "502"])
    }

    @Test func badSyntaxIs501And553() {
        var smtp = session(Recorder())
        #expect(codes(&smtp, ["EHLO", "EHLO x", "MAIL TO:<a@example.com>", "MAIL FROM:<not an address>"]) == ["501", "250", "501", "553"])
        #expect(codes(&smtp, ["MAIL FROM:<>", "RCPT TO:<nobody>", "RCPT TO:<>", "MAIL FROM:<a@example.com> FOO=1"]) == ["250", "501", "501", "503"])
        #expect(codes(&smtp, ["RSET", "MAIL FROM:<a@example.com> FOO=1", "MAIL FROM:<a@example.com> BODY=9BIT"]) == ["250", "555", "501"])
    }

    @Test func theNullSenderAndAPathWithoutBracketsAreTaken() {
        let recorder = Recorder()
        var smtp = session(recorder)
        #expect(codes(&smtp, ["HELO x", "MAIL FROM: <>", "RCPT TO: user@example.com", "DATA", "x", "."]) == ["250", "250", "250", "354", "250"])
        #expect(recorder.delivered.first?.0.mailFrom == "")
        #expect(recorder.delivered.first?.0.recipients == ["user@example.com"])
    }

    @Test func aDeclaredSizeOverTheLimitIsRefusedBeforeData() {
        var limits = SMTPLimits()
        limits.maxMessageBytes = 1000
        var smtp = session(Recorder(), limits: limits)
        let replies = smtp.receive(line: Array("EHLO x".utf8)).replies + smtp.receive(line: Array("MAIL FROM:<a@example.com> SIZE=1001".utf8)).replies
        #expect(replies.last == "552 5.3.4 Message size exceeds the limit of 1000 bytes")
    }

    @Test func aMessageOverTheLimitIsReadToItsEndThenRefusedAndNotStored() {
        var limits = SMTPLimits()
        limits.maxMessageBytes = 100
        let recorder = Recorder()
        var smtp = session(recorder, limits: limits)
        let body = Array(repeating: String(repeating: "x", count: 40), count: 5)
        let replies = codes(&smtp, ["EHLO x", "MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "DATA"] + body + [".", "NOOP"])
        #expect(replies.suffix(2) == ["552", "250"])
        #expect(recorder.delivered.isEmpty)
        // The session is ready for the next message.
        #expect(codes(&smtp, ["MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "DATA", "short", "."]) == ["250", "250", "354", "250"])
        #expect(recorder.delivered.count == 1)
    }

    @Test func recipientsPastTheLimitGet452() {
        var limits = SMTPLimits()
        limits.maxRecipients = 2
        var smtp = session(Recorder(), limits: limits)
        #expect(codes(&smtp, ["HELO x", "MAIL FROM:<a@example.com>", "RCPT TO:<1@example.com>", "RCPT TO:<2@example.com>", "RCPT TO:<3@example.com>"])
            == ["250", "250", "250", "250", "452"])
    }

    @Test func aStoreFailureIsATemporary451() {
        let recorder = Recorder()
        recorder.failWith = "disk full"
        var smtp = session(recorder)
        let replies = ["HELO x", "MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "DATA", "x", "."].flatMap { smtp.receive(line: Array($0.utf8)).replies }
        #expect(replies.last == "451 4.3.0 Message not stored, try again later: disk full")
    }

    @Test func authPlainAndLoginTakeAnyPasswordAndKeepTheUser() {
        let recorder = Recorder()
        var smtp = session(recorder)
        // base64("\0project:demo-other\0secret")
        #expect(codes(&smtp, ["EHLO x", "AUTH PLAIN AHByb2plY3Q6ZGVtby1vdGhlcgBzZWNyZXQ=", "AUTH PLAIN AGEAYg=="]) == ["250", "235", "503"])
        _ = codes(&smtp, ["MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "DATA", "x", "."])
        #expect(recorder.delivered.first?.0.authenticatedUser == "project:demo-other")

        var login = session(Recorder())
        // "Username:" / "Password:" prompts, then base64("alice") and base64("pw").
        #expect(codes(&login, ["EHLO x", "AUTH LOGIN", "YWxpY2U=", "cHc="]) == ["250", "334", "334", "235"])
        var plain = session(Recorder())
        #expect(codes(&plain, ["EHLO x", "AUTH PLAIN", "AGEAYg==", "AUTH CRAM-MD5"]) == ["250", "334", "235", "503"])
        var cancelled = session(Recorder())
        #expect(codes(&cancelled, ["EHLO x", "AUTH LOGIN", "*", "AUTH XOAUTH", "AUTH PLAIN !!!"]) == ["250", "334", "501", "504", "501"])
        var early = session(Recorder())
        #expect(codes(&early, ["AUTH PLAIN AGEAYg==", "EHLO x", "MAIL FROM:<a@example.com>", "AUTH PLAIN AGEAYg=="]) == ["503", "250", "250", "503"])
    }

    @Test func rsetForgetsTheTransaction() {
        let recorder = Recorder()
        var smtp = session(recorder)
        #expect(codes(&smtp, ["EHLO x", "MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "RSET", "DATA"]) == ["250", "250", "250", "250", "503"])
        #expect(recorder.delivered.isEmpty)
    }

    @Test func theLineReaderSplitsOnCRLFAndBareLFAndSkipsALongLine() {
        var reader = LineReader()
        reader.append(Array("ab\r\ncd\nefgh".utf8)[...])
        #expect(reader.nextLine(limit: 10) == .line(Array("ab".utf8)))
        #expect(reader.nextLine(limit: 10) == .line(Array("cd".utf8)))
        #expect(reader.nextLine(limit: 10) == nil)
        reader.append(Array("ij\r\n".utf8)[...])
        #expect(reader.nextLine(limit: 10) == .line(Array("efghij".utf8)))
        reader.append(Array(repeating: UInt8(ascii: "z"), count: 50)[...])
        #expect(reader.nextLine(limit: 10) == .tooLong)
        reader.append(Array("zzz\r\nok\r\n".utf8)[...])
        #expect(reader.nextLine(limit: 10) == .line(Array("ok".utf8)))
        reader.append(Array("0123456789012\r\n".utf8)[...])
        #expect(reader.nextLine(limit: 10) == .tooLong)
    }
}
