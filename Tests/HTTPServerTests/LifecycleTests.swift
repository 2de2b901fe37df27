import HTTPTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import Sockets
import Testing

@Suite struct LifecycleTests {
    @Test func portZeroBindsAnEphemeralPort() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }

        #expect(server.port != 0)
        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
    }

    @Test func portBeforeStartIsTheConfiguredOne() {
        let server = HTTPServer(configuration: .init(port: 4321), handler: RecordingHandler())
        #expect(server.port == 4321)
    }

    @Test func bindingATakenPortThrows() throws {
        let first = try startedServer(RecordingHandler())
        defer { first.shutdown() }
        let second = HTTPServer(configuration: .init(host: "127.0.0.1", port: first.port), handler: RecordingHandler())

        let error = #expect(throws: HTTPServerError.self) { try second.start() }

        #expect(error?.description == "could not listen on 127.0.0.1:\(first.port): Address already in use")
        #expect(error?.isAddressInUse == true)
    }

    /// `bind()` takes the port before `start()` serves on it: a connection made between them waits
    /// in the kernel's queue and is answered once the server starts.
    @Test func aBoundServerServesOnItsPortOnceStarted() throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: RecordingHandler())
        defer { server.shutdown() }
        try server.bind()
        let port = server.port
        #expect(port != 0)
        let early = try RawHTTPConnection(port: port)
        try early.sendRequest("GET", "/early")
        let taken = HTTPServer(configuration: .init(host: "127.0.0.1", port: port), handler: RecordingHandler())
        #expect((#expect(throws: HTTPServerError.self) { try taken.bind() })?.isAddressInUse == true)
        try server.start()
        #expect(server.port == port)
        #expect(try early.readResponse().status == 200)
    }

    @Test func aBoundServerThatNeverStartsGivesItsPortBack() throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: RecordingHandler())
        try server.bind()
        let port = server.port
        server.shutdown()
        #expect(RawHTTPConnection.isRefused(port: port))
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func hostThatIsNotAnAddressThrows() {
        let server = HTTPServer(configuration: .init(host: "example.invalid", port: 0), handler: RecordingHandler())

        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func startingTwiceThrows() throws {
        let server = try startedServer(RecordingHandler())
        defer { server.shutdown() }

        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func localhostMeansIPv4Loopback() throws {
        let server = try startedServer(RecordingHandler(), host: "localhost")
        defer { server.shutdown() }

        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
    }

    @Test(.enabled(if: ipv6LoopbackWorks())) func ipv6LoopbackLiteral() throws {
        let server = try startedServer(RecordingHandler(), host: "::1")
        defer { server.shutdown() }

        #expect(try RawHTTPConnection(port: server.port, ipv6: true).exchange("GET", "/").status == 200)
    }

    @Test func singleThreadServes() throws {
        let server = try startedServer(RecordingHandler(), threadCount: 1)
        defer { server.shutdown() }

        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 200)
    }

    @Test func idleConnectionTimesOut() throws {
        let server = HTTPServer(
            configuration: .init(port: 0, connectionTimeoutSeconds: 1), handler: RecordingHandler())
        try server.start()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        _ = try connection.exchange("GET", "/")

        let start = monotonicNow()
        #expect(connection.isClosedByServer())
        #expect(milliseconds(since: start) > 500)
    }

    @Test func defaultThreadCountIsAtLeastTwo() {
        #expect(HTTPServer.defaultThreadCount >= 2)
    }

    @Test func shutdownWaitsForTheRequestInFlight() throws {
        let handlerStarted = Signal()
        let server = try startedServer(
            RecordingHandler { _ in
                handlerStarted.raise()
                usleep(300_000)
                return HTTPResponse(status: 200, body: Array("finished".utf8))
            })
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.sendRequest("GET", "/slow")
        #expect(handlerStarted.wait(atMost: 5))

        let start = monotonicNow()
        server.shutdown(gracePeriodSeconds: 5)
        let waited = milliseconds(since: start)

        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(waited >= 200)
        #expect(waited < 4000)
        #expect(RawHTTPConnection.isRefused(port: port))
    }

    @Test func newConnectionsAreRefusedWhileDraining() throws {
        let handlerStarted = Signal()
        let handlerFinished = Signal()
        let server = try startedServer(
            RecordingHandler { _ in
                handlerStarted.raise()
                usleep(300_000)
                handlerFinished.raise()
                return HTTPResponse(status: 200)
            })
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.sendRequest("GET", "/slow")
        #expect(handlerStarted.wait(atMost: 5))

        // One thread drains; the other keeps dialling until refused, which must happen before
        // the slow handler is done.
        let refusedWhileDraining = Signal()
        onThreads(2) { thread in
            if thread == 0 {
                server.shutdown(gracePeriodSeconds: 5)
                return
            }
            while !handlerFinished.isRaised {
                if RawHTTPConnection.isRefused(port: port) {
                    if !handlerFinished.isRaised { refusedWhileDraining.raise() }
                    return
                }
                usleep(2000)
            }
        }

        #expect(refusedWhileDraining.isRaised)
        #expect(try connection.readResponse().status == 200)
        #expect(handlerFinished.isRaised)
    }

    @Test func shutdownGivesUpAfterTheGracePeriod() throws {
        let handlerStarted = Signal()
        let server = try startedServer(
            RecordingHandler { _ in
                handlerStarted.raise()
                usleep(400_000)
                return HTTPResponse(status: 200)
            })
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/slow")
        #expect(handlerStarted.wait(atMost: 5))

        // The grace period ends first; stopping still lets the running handler call return.
        let start = monotonicNow()
        server.shutdown(gracePeriodSeconds: 0.05)
        #expect(milliseconds(since: start) < 2000)
    }

    @Test func shutdownTwiceIsFine() throws {
        let server = try startedServer(RecordingHandler())
        let port = server.port

        server.shutdown()
        server.shutdown(gracePeriodSeconds: 0)

        #expect(server.port == port)
        #expect(RawHTTPConnection.isRefused(port: port))
    }

    @Test func shutdownBeforeStartIsFine() {
        let server = HTTPServer(configuration: .init(port: 0), handler: RecordingHandler())
        server.shutdown()
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func droppingTheServerStopsIt() throws {
        var server: HTTPServer? = try startedServer(RecordingHandler())
        let port = try #require(server?.port)
        #expect(try RawHTTPConnection(port: port).exchange("GET", "/").status == 200)

        server = nil

        #expect(RawHTTPConnection.isRefused(port: port))
    }

    @Test func idleKeepAliveConnectionDoesNotDelayShutdown() throws {
        let server = try startedServer(RecordingHandler())
        let connection = try RawHTTPConnection(port: server.port)
        _ = try connection.exchange("GET", "/")

        let start = monotonicNow()
        server.shutdown(gracePeriodSeconds: 5)

        #expect(milliseconds(since: start) < 1000)
        #expect(connection.isClosedByServer())
    }
}

private func ipv6LoopbackWorks() -> Bool {
    guard let probe = try? ListeningSocket(SocketAddress(host: "::1", port: 0)!) else { return false }
    close(probe.descriptor)
    return true
}
