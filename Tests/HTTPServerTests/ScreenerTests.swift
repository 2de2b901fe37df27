#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import HTTPTestSupport
import Testing

/// The connection screener, over real sockets: a connection is handed to libmicrohttpd once its
/// first head is in, however it arrives; what sends nothing or gives up holds nothing up; a
/// refusal reaches a client that is still sending; and the server keeps serving afterwards.
@Suite struct ScreenerTests {
    @Test func silentConnectionsHoldNothingUp() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }
        let silent = try (0..<3).map { _ in try RawHTTPConnection(port: server.port) }
        // Held up, it would wait for the silent ones' 60 s idle timeout: past its own 30 s.
        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
        #expect(try silent[0].exchange("GET", "/late").status == 200)  // and a silent one may still speak
    }

    @Test func aHeadSentInPiecesIsServed() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        for piece in ["GET /pie", "ces HTTP/1.1\r\nHo", "st: x\r\n", "\r", "\n"] {
            try connection.send(piece)
            usleep(30_000)
        }
        #expect(try connection.readResponse().status == 200)
        #expect(handler.requests.first?.path == "/pieces")
    }

    /// More looks than the screener makes at full speed, so its pauses between looks are crossed.
    @Test func aHeadSentAByteAtATimeIsServed() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        for byte in "GET /slow HTTP/1.1\r\nHost: x\r\nX-Trickle: yes\r\n\r\n".utf8 {
            try connection.send([byte])
            usleep(2_000)
        }
        #expect(try connection.readResponse().status == 200)
    }

    @Test func aPartialHeadThenHalfCloseIsDroppedAtOnce() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }
        // Kept, it would be closed only by the 60 s idle timeout: past the connection's own 30 s.
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n")
        connection.shutdownWrite()
        #expect(try connection.readToEnd().isEmpty)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() throws {
        let server = HTTPServer(configuration: .init(port: 0, connectionTimeoutSeconds: 1), handler: RecordingHandler())
        try server.start()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
        let started = monotonicSeconds()
        #expect(connection.isClosedByServer())
        #expect(monotonicSeconds() - started > 0.5)
    }

    @Test func pipelinedRequestsAreAllAnswered() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
        #expect(try connection.readResponse().status == 200)
        #expect(try connection.readResponse().status == 200)
        #expect(handler.requests.map(\.path) == ["/one", "/two"])
    }

    /// A client still sending its body when refused reads the whole answer: the screener reads
    /// and drops what it sends instead of resetting the connection.
    @Test func aRefusedClientThatKeepsSendingGetsTheAnswer() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
        try? connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n" + String(repeating: "x", count: 256 << 10))
        connection.shutdownWrite()
        let text = String(decoding: try connection.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text.prefix(200))")
        #expect(text.contains("Connection: close\r\n"))
    }

    @Test func theServerServesAfterRefusals() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }
        for raw in ["GET / HTTP/2.0\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", "\u{0}\r\n\r\n"] {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
            try connection.send(raw)
            #expect(!(try connection.readToEnd()).isEmpty)
        }
        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
    }

    /// A handler that blocks holds its own thread only: every new connection goes to a daemon
    /// whose thread is free (handed over by socket number, as libmicrohttpd's own pool would,
    /// about half of them waited for the slow one).
    @Test func aBlockedHandlerStallsNoNewConnection() throws {
        let slowStarted = Signal()
        let release = Signal()
        let server = try startedServer(
            RecordingHandler { request in
                if request.path == "/slow" {
                    slowStarted.raise()
                    _ = release.wait(atMost: 60)  // until the ten below are answered
                }
                return HTTPResponse(status: 200)
            })
        defer { server.shutdown() }
        let slow = try RawHTTPConnection(port: server.port)
        try slow.sendRequest("GET", "/slow")
        #expect(slowStarted.wait(atMost: 60))
        // One handed to the blocked thread would wait for the release: past its own 30 s.
        for _ in 0..<10 {
            #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
        }
        #expect(!release.isRaised)
        release.raise()
        #expect(try slow.readResponse().status == 200)
    }

    /// Connections waiting for their first head are bounded by the connection limit: one over it
    /// is closed at accept, and the server serves again once they are gone.
    @Test func connectionsAwaitingAHeadAreBounded() throws {
        let configuration = HTTPServer.Configuration(port: 0, connectionTimeoutSeconds: 5, limits: HTTPLimits(maximumConnections: 2))
        let server = HTTPServer(configuration: configuration, handler: RecordingHandler())
        try server.start()
        defer { server.shutdown() }
        var silent = try (0..<2).map { _ in try RawHTTPConnection(port: server.port, timeoutSeconds: 3) }
        usleep(100_000)
        let over = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
        #expect(over.isClosedByServer())
        silent.removeAll()
        // Once the server has seen them close (however long a loaded machine takes), it serves.
        let served = Signal()
        for _ in 0..<600 where !served.isRaised {
            if (try? RawHTTPConnection(port: server.port, timeoutSeconds: 3).exchange("GET", "/").status) == 200 {
                served.raise()
            } else {
                usleep(100_000)
            }
        }
        #expect(served.isRaised)
    }

    /// libmicrohttpd 0.9.75 returns with the daemon's cleanup mutex still locked when a connection
    /// added with MHD_add_connection finds the daemon at its connection limit once its thread gets
    /// to it (`new_connection_process_`; fixed upstream in 1.0.0), and the thread deadlocks on that
    /// mutex at once: its connections are never answered and stopping the server hangs. Here two
    /// connections reach a daemon one short of its limit while its thread is in a handler, so
    /// libmicrohttpd counts neither before both are handed over.
    @Test func connectionsHandedOverPastTheLimitLeaveTheDaemonWorking() throws {
        let slowStarted = Signal()
        let release = Signal()
        let configuration = HTTPServer.Configuration(
            port: 0, threadCount: 1, connectionTimeoutSeconds: 5, limits: HTTPLimits(maximumConnections: 2))
        let server = HTTPServer(
            configuration: configuration,
            handler: RecordingHandler { request in
                if request.path == "/slow" {
                    slowStarted.raise()
                    _ = release.wait(atMost: 10)
                }
                return HTTPResponse(status: 200)
            })
        try server.start()
        // Kept until it has shut down: a wedged daemon would hang the release in `deinit` instead.
        let kept = Unmanaged.passRetained(server)
        let slow = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
        try slow.sendRequest("GET", "/slow")
        #expect(slowStarted.wait(atMost: 60))
        let late = try (0..<2).map { _ in try RawHTTPConnection(port: server.port, timeoutSeconds: 5) }
        for connection in late { try connection.sendRequest("GET", "/late") }
        usleep(300_000)  // for the screener to hand both over
        release.raise()
        #expect(try slow.readResponse().status == 200)
        // One fits under the limit and is answered; the other is over it and closed unanswered.
        let answered = late.filter { (try? $0.readResponse().status) == 200 }.count
        #expect(answered == 1)
        #expect(try slow.exchange("GET", "/again").status == 200)
        let stopped = try shutsDown(server, within: 10)
        #expect(stopped)
        if stopped { kept.release() }
    }
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
