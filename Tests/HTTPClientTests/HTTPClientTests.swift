@testable import HTTPClient
import HTTPServer
import Testing

/// Echoes the method, path and body, so the client's request can be checked from its answer.
private struct EchoHandler: HTTPHandler {
    func respond(to request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("X-Host", request.headers["host"] ?? "")
        let echo = "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))"
        return HTTPResponse(status: request.path == "/missing" ? 404 : 200, headers: headers, body: Array(echo.utf8))
    }

    func respondToOversizedBody(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }
}

@Suite struct HTTPClientTests {
    @Test func postsAndReadsTheAnswerOverARealSocket() throws {
        let server = HTTPServer(configuration: .init(port: 0), handler: EchoHandler())
        try server.start()
        defer { server.shutdown() }
        let response = try HTTPClient.send("POST", "http://localhost:\(server.port)/tokens?x=1", body: Array("{}".utf8))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /tokens {}")
        #expect(response.header("x-host") == "localhost:\(server.port)")
        #expect(try HTTPClient.send("GET", "http://127.0.0.1:\(server.port)/missing").status == 404)
    }

    @Test func refusedAndUnresolvableAddressesFailClearly() throws {
        let server = HTTPServer(configuration: .init(port: 0), handler: EchoHandler())
        try server.start()
        let port = server.port
        server.shutdown()
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.send("GET", "http://127.0.0.1:\(port)/") }
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.send("GET", "https://127.0.0.1/") }
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.send("GET", "http://no-such-host.invalid/") }
    }

    @Test func chunkedBodiesAreJoined() throws {
        let raw = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n".utf8)
        let response = try ResponseParser.parse(raw)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello, world")
        #expect(throws: HTTPClient.Failure.self) {
            try ResponseParser.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8))
        }
    }

    /// Malformed framing from a peer is a `Failure`, never a trap: these used to kill the emulator.
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;ext\r\nab\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffffff\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5",
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n{}",
        "HTTP/1.1 -200 OK\r\n\r\n", "HTTP/1.1 99999999999999999999 OK\r\n\r\n", "HTTP/1.1\r\n\r\n",
        "\r\n\r\n", "", "\r\n\r", "HTTP/1.1 200 OK\r\n",
    ])
    func malformedAnswersFailInsteadOfTrapping(_ raw: String) {
        #expect(throws: HTTPClient.Failure.self) { try ResponseParser.parse(Array(raw.utf8)) }
    }

    @Test func wellFormedFramingStillParses() throws {
        let lengthFramed = try ResponseParser.parse(Array("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}extra".utf8))
        #expect(lengthFramed.status == 201)
        #expect(lengthFramed.body == Array("{}".utf8))
        let spacedSize = try ResponseParser.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n 2 \r\n{}\r\n0\r\n\r\n".utf8))
        #expect(spacedSize.body == Array("{}".utf8))
        let toClose = try ResponseParser.parse(Array("HTTP/1.0 200 OK\r\n\r\nbody".utf8))
        #expect(toClose.body == Array("body".utf8))
    }

    @Test func targetsParseHostPortAndPath() throws {
        let target = try HTTPClient.Target("http://[::1]:9099/emulator/v1/idp/apple.com/tokens")
        #expect(target.host == "::1")
        #expect(target.port == "9099")
        #expect(target.path == "/emulator/v1/idp/apple.com/tokens")
        #expect(try HTTPClient.Target("http://example.test").path == "/")
        #expect(try HTTPClient.Target("http://example.test").hostHeader == "example.test")
    }
}
