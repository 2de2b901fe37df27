#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

@testable import SMTPServer

/// The listener over a real loopback socket: the limits that need time or several connections.
@Suite struct SMTPListenerTests {
    final class Client {
        let socket: Int32
        private var buffer: [UInt8] = []

        init(port: UInt16) throws {
            socket = tcpSocket()
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw SMTPServerError("connect failed") }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
        for _ in 0..<3000 where !admitted {  // until the listener has seen the QUIT's close (60 s at most)
            let next = try Client(port: smtp.port)
            admitted = next.line()?.hasPrefix("220 ") == true
            if !admitted { usleep(20_000) }
        }
        #expect(admitted)
    }

    @Test func stopTellsIdleClientsAndReturnsPromptly() throws {
        let smtp = try listener(SMTPLimits())
        let client = try Client(port: smtp.port)
        #expect(client.line()?.hasPrefix("220 ") == true)
        client.write("EHLO me\r\n")
        while let line = client.line(), line.hasPrefix("250-") {}
        let started = Date()
        smtp.stop()
        #expect(Date().timeIntervalSince(started) < 60)  // not the idle client's timeout
        #expect(client.line()?.hasPrefix("421 4.3.2") == true)
    }
}

/// A TCP socket (the socket type's Swift spelling differs between Glibc and Darwin).
private func tcpSocket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
}
