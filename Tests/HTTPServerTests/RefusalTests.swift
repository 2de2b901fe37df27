#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import HTTPTestSupport
import Testing

/// The server's own refusals: each over a real socket, answered by the handler's
/// `respondToRefusal` (never libmicrohttpd's HTML), with one status line, and the connection closed.
@Suite struct RefusalTests {
    /// Answers refusals as JSON naming the status, so a test can tell our answer from MHD's page.
    private struct RefusingHandler: HTTPHandler {
        let recorded = RecordingHandler()

        func respond(to request: HTTPRequest) -> HTTPResponse { recorded.respond(to: request) }
        func respondToOversizedBody(limit: Int) -> HTTPResponse { recorded.respondToOversizedBody(limit: limit) }
        func respondToRefusal(_ refusal: HTTPRefusal) -> HTTPResponse {
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/json")
            return HTTPResponse(status: 200, headers: headers, body: Array("{\"refused\":\(refusal.status)}".utf8))
        }
    }

    /// Sends `raw` and reads until the server closes; a hang fails at the 3 s read timeout.
    private func refusal(of raw: String) throws -> (text: String, handled: Int) {
        let handler = RefusingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
        try? connection.send(raw)  // the server may close before it has read everything
        let text = String(decoding: try connection.readToEnd(), as: UTF8.self)
        return (text, handler.recorded.requests.count)
    }

    private func expectRefused(_ raw: String, status: Int) throws {
        let (text, handled) = try refusal(of: raw)
        #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(text.prefix(200))")
        #expect(text.ranges(of: "HTTP/1.").count == 1, "one status line: \(text.prefix(400))")
        #expect(text.hasSuffix("{\"refused\":\(status)}"), "\(text.prefix(400))")
        #expect(handled == 0)
    }

    @Test func aLongURLIs414() throws {
        try expectRefused("GET /\(String(repeating: "a", count: 64 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
    }

    @Test(arguments: [300, 1000, 5000])
    func tooManyQueryParametersAre414WithoutAHang(_ count: Int) throws {
        let query = (0..<count).map { "p\($0)=v" }.joined(separator: "&")
        try expectRefused("GET /x?\(query) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
    }

    @Test func aLargeHeaderIs431() throws {
        try expectRefused("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 64 << 10))\r\n\r\n", status: 431)
    }

    @Test(arguments: [200, 1000])
    func manyHeadersAre431(_ count: Int) throws {
        let headers = (0..<count).map { "X-\($0): v\r\n" }.joined()
        try expectRefused("GET / HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", status: 431)
    }

    @Test func twoContentLengthsAre400() throws {
        try expectRefused("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", status: 400)
    }

    /// What libmicrohttpd 0.9.75 answers with its own HTML page, before any callback, when it is
    /// the first request of a connection: the screener answers it instead.
    @Test(arguments: [
        ("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}", 400),
        ("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}", 400),
        ("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1.5\r\n\r\n{}", 400),
        ("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n{}", 400),
        ("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n{}", 400),
        ("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n{}", 400),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET / HTTP/0.9\r\nHost: x\r\n\r\n", 505),
        ("GET / FOO/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /\r\n\r\n", 400),
        ("GARBAGE\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost x\r\n\r\n", 400),
        ("GET /\(String(repeating: "a", count: 300 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: x\r\n\((0..<1200).map { "X-\($0): \(String(repeating: "v", count: 250))\r\n" }.joined())\r\n", 431),
    ])
    func whatLibmicrohttpdAnswersItselfIsOursOnAFirstRequest(_ raw: String, status: Int) throws {
        try expectRefused(raw, status: status)
    }

    @Test func aContentLengthTooBigForAnyNumberIsTheOversizedBodyAnswer() throws {
        let (text, handled) = try refusal(of: "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: \(String(repeating: "9", count: 30))\r\n\r\n")
        #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text.prefix(200))")
        #expect(text.ranges(of: "HTTP/1.").count == 1, "one status line: \(text.prefix(400))")
        #expect(text.hasSuffix("{\"limit\":1048576}"), "\(text.prefix(400))")
        #expect(handled == 0)
    }

    @Test func requestsWithinTheLimitsAreServed() throws {
        let handler = RefusingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let limits = HTTPLimits()
        let query = (0..<limits.maximumQueryParameters).map { "p\($0)=v" }.joined(separator: "&")
        let headers = (0..<(limits.maximumHeaderCount - 1)).map { ("X-\($0)", "v") }
        let response = try RawHTTPConnection(port: server.port).exchange("GET", "/x?\(query)", headers: headers)
        #expect(response.status == 200)
        #expect(handler.recorded.requests.first?.query.count == limits.maximumQueryParameters)
    }

    /// A request head right at every limit at once (URL bytes and parameters, header count and
    /// bytes), on a kept-alive connection: the screener saw only the connection's first head, so
    /// this one rests on libmicrohttpd's memory per connection holding it (and its records).
    private static func headAtTheLimits(_ limits: HTTPLimits, extraURLByte: Int = 0, extraParameter: Int = 0,
        extraHeaderByte: Int = 0, extraHeader: Int = 0) -> String
    {
        let parameters = limits.maximumQueryParameters + extraParameter
        var query = (0..<parameters).map { "p\($0)=" }.joined(separator: "&")
        let target = "/x?" + query
        query += String(repeating: "v", count: limits.maximumURLBytes + extraURLByte - target.utf8.count)
        var fields = [("Host", "x")] + (1..<(limits.maximumHeaderCount + extraHeader)).map { ("X-\($0)", "") }
        var room = limits.maximumHeaderBytes + extraHeaderByte - fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        for index in fields.indices.dropFirst() {
            let share = room / (fields.count - index)
            fields[index].1 = String(repeating: "v", count: share)
            room -= share
        }
        return "GET /x?\(query) HTTP/1.1\r\n" + fields.map { "\($0): \($1)\r\n" }.joined() + "\r\n"
    }

    @Test func theLimitsHoldOnEveryRequestOfAKeptAliveConnection() throws {
        let limits = HTTPLimits()
        let handler = RefusingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        func secondRequest(_ raw: String) throws -> RawHTTPConnection.Response {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
            #expect(try connection.exchange("GET", "/first").status == 200)
            try connection.send(raw)
            return try connection.readResponse()
        }
        let atTheLimits = try secondRequest(Self.headAtTheLimits(limits))
        #expect(atTheLimits.status == 200, "\(String(decoding: atTheLimits.body, as: UTF8.self).prefix(300))")
        let served = handler.recorded.requests.last
        #expect(served?.query.count == limits.maximumQueryParameters)
        #expect(served?.headers.fields.count == limits.maximumHeaderCount)
        #expect(served.map { $0.headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } } == limits.maximumHeaderBytes)
        for (raw, status) in [
            (Self.headAtTheLimits(limits, extraURLByte: 1), 414), (Self.headAtTheLimits(limits, extraParameter: 1), 414),
            (Self.headAtTheLimits(limits, extraHeaderByte: 1), 431), (Self.headAtTheLimits(limits, extraHeader: 1), 431),
        ] {
            let refused = try secondRequest(raw)
            #expect(refused.status == status)
            #expect(String(decoding: refused.body, as: UTF8.self) == "{\"refused\":\(status)}")
        }
    }

    /// A body shorter than its Content-Length, then a half-close: the server drops the connection
    /// at once (it used to hold it for the idle timeout) and a shutdown does not wait for it.
    @Test func aTruncatedBodyThenHalfCloseIsDroppedAndNeverDelaysShutdown() throws {
        let handler = RefusingHandler()
        let server = try startedServer(handler)
        for _ in 0..<5 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
            try connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}")
            connection.shutdownWrite()
            #expect(try connection.readToEnd().isEmpty)
        }
        // One left mid-body, still open: the shutdown closes it instead of waiting out the grace.
        let stalled = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
        try stalled.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}")
        let before = timespec.monotonicNow
        server.shutdown(gracePeriodSeconds: 30)
        #expect(timespec.monotonicNow - before < 10, "shutdown waited for a body that never came")
        #expect(handler.recorded.requests.isEmpty)
    }
}

extension timespec {
    fileprivate static var monotonicNow: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
