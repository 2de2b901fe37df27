import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import HTTPTestSupport
import Synchronization
import Testing

/// Defers `/wait` requests and keeps their completions for the test to answer; answers anything
/// else at once.
private final class DeferringHandler: HTTPHandler {
    let waiting = Mutex<[ResponseCompletion]>([])

    func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 200, body: Array("now".utf8)) }

    func reply(to request: HTTPRequest) -> HTTPReply {
        switch request.path {
        case "/wait":
            return .later { completion in self.waiting.withLock { $0.append(completion) } }
        case "/instant":
            // Completing inside `begin`, before the access handler has even returned.
            return .later { $0.complete(HTTPResponse(status: 201, body: Array("instant".utf8))) }
        default:
            return .now(respond(to: request))
        }
    }

    func respondToOversizedBody(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }

    func respondToShutdown() -> HTTPResponse { HTTPResponse(status: 503, body: Array("bye".utf8)) }

    var count: Int { waiting.withLock { $0.count } }

    func completeAll(_ text: String) {
        for completion in waiting.withLock({ $0 }) { completion.complete(HTTPResponse(status: 200, body: Array(text.utf8))) }
    }

    /// Waits until `count` requests are suspended (at most 60 s, a bound only a bug reaches).
    func waitForSuspended(_ count: Int) -> Bool {
        for _ in 0..<60_000 where self.count < count { usleep(1000) }
        return self.count >= count
    }
}

@Suite struct DeferredReplyTests {
    @Test func aDeferredAnswerArrivesOnTheSameKeptAliveConnection() throws {
        let handler = DeferringHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/wait")
        #expect(handler.waitForSuspended(1))
        let completion = try #require(handler.waiting.withLock { $0.first })
        #expect(completion.complete(HTTPResponse(status: 200, body: Array("later".utf8))))
        #expect(!completion.complete(HTTPResponse(status: 500)))  // one-shot: the second is ignored
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "later")
        // The connection carries on, and the request was not dispatched a second time.
        #expect(try connection.exchange("GET", "/instant").text == "instant")
        #expect(try connection.exchange("GET", "/other").text == "now")
        #expect(handler.count == 1)
    }

    @Test func aHundredWaitingRequestsHoldNoThread() throws {
        let handler = DeferringHandler()
        let server = try startedServer(handler, threadCount: 2)
        defer { server.shutdown() }
        let connections = try (0..<100).map { _ in try RawHTTPConnection(port: server.port) }
        for connection in connections { try connection.sendRequest("GET", "/wait") }
        #expect(handler.waitForSuspended(100))
        // Two threads, a hundred suspended requests, and a normal one still answers (were a
        // thread held, it would wait for completeAll below: past its own 30 s).
        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/other").text == "now")
        handler.completeAll("done")
        for connection in connections { #expect(try connection.readResponse().text == "done") }
    }

    @Test func shutdownAnswersWaitingRequestsAndStops() throws {
        let handler = DeferringHandler()
        let server = try startedServer(handler)
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/wait")
        #expect(handler.waitForSuspended(1))
        let started = monotonicNow()
        server.shutdown(gracePeriodSeconds: 120)
        #expect(milliseconds(since: started) < 60_000)  // not the whole grace period
        let response = try connection.readResponse()
        #expect(response.status == 503)
        #expect(response.text == "bye")
        #expect(handler.waiting.withLock { $0.allSatisfy(\.isCompleted) })
    }
}
