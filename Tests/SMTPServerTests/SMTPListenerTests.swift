#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sockets
import Testing

@testable import SMTPServer

/// The listener over a real loopback socket: the limits that need time or several connections.
@Suite struct SMTPListenerTests {
    final class Client {
        let socket: Int32
        private var buffer: [UInt8] = []

        init(port: UInt16) throws {
            socket = try SocketAddress(host: "127.0.0.1", port: port)!.connect(timeoutSeconds: 5)
        }

        deinit { close(socket) }

        func write(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        }

        /// The next line, or nil once the server has closed the connection.
        func line() -> String? {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    defer { buffer.removeSubrange(...end) }
                    return String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                buffer += chunk[..<count]
            }
        }
    }

    func listener(_ limits: SMTPLimits) throws -> SMTPListener {
        let listener = try SMTPListener(host: "127.0.0.1", port: 0, limits: limits) { _, _ in .stored(id: "1") }
        try listener.start()
        return listener
    }

    @Test func anIdleClientIsToldAndDisconnected() throws {
        var limits = SMTPLimits()
        limits.idleTimeoutSeconds = 1
        let smtp = try listener(limits)
        defer { smtp.stop() }
        let client = try Client(port: smtp.port)
        #expect(client.line()?.hasPrefix("220 ") == true)
        let started = Date()
        #expect(client.line()?.hasPrefix("421 4.4.2") == true)
        #expect(client.line() == nil)
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func connectionsPastTheLimitGet421() throws {
        var limits = SMTPLimits()
        limits.maxConnections = 2
        let smtp = try listener(limits)
        defer { smtp.stop() }
        let first = try Client(port: smtp.port)
        let second = try Client(port: smtp.port)
        #expect(first.line()?.hasPrefix("220 ") == true)
        #expect(second.line()?.hasPrefix("220 ") == true)
        let third = try Client(port: smtp.port)
        #expect(third.line()?.hasPrefix("421 4.3.2") == true)
        #expect(third.line() == nil)
        // A freed place is taken again.
        first.write("QUIT\r\n")
        #expect(first.line()?.hasPrefix("221 ") == true)
        #expect(first.line() == nil)
        var admitted = false
        for _ in 0..<50 where !admitted {
            let next = try Client(port: smtp.port)
            admitted = next.line()?.hasPrefix("220 ") == true
            if !admitted { usleep(20_000) }
        }
        #expect(admitted)
    }

    @Test func aTakenPortIsSaidToBeInUse() throws {
        let first = try listener(SMTPLimits())
        defer { first.stop() }
        let error = #expect(throws: SMTPServerError.self) {
            try SMTPListener(host: "127.0.0.1", port: first.port) { _, _ in .stored(id: "1") }
        }
        #expect(error?.isAddressInUse == true)
        #expect(error?.description == "could not listen for SMTP on 127.0.0.1:\(first.port): Address already in use")
        let notAnAddress = #expect(throws: SMTPServerError.self) {
            try SMTPListener(host: "mail.example", port: 0) { _, _ in .stored(id: "1") }
        }
        #expect(notAnAddress?.isAddressInUse == false)
    }

    @Test(.enabled(if: SocketAddress(host: "::1", port: 0).flatMap { try? ListeningSocket($0) }.map { close($0.descriptor) } != nil))
    func aBracketedIPv6HostIsWrittenOnce() throws {
        let smtp = try SMTPListener(host: "[::1]", port: 0) { _, _ in .stored(id: "1") }
        #expect(smtp.address == "[::1]:\(smtp.port)")
    }

    @Test func stopTellsIdleClientsAndReturnsPromptly() throws {
        let smtp = try listener(SMTPLimits())
        let client = try Client(port: smtp.port)
        #expect(client.line()?.hasPrefix("220 ") == true)
        client.write("EHLO me\r\n")
        while let line = client.line(), line.hasPrefix("250-") {}
        let started = Date()
        smtp.stop()
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(client.line()?.hasPrefix("421 4.3.2") == true)
    }
}
