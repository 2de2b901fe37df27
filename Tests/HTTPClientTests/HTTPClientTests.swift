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

    @Test func targetsParseHostPortAndPath() throws {
        let target = try HTTPClient.Target("http://[::1]:9099/emulator/v1/idp/apple.com/tokens")
        #expect(target.host == "::1")
        #expect(target.port == "9099")
        #expect(target.path == "/emulator/v1/idp/apple.com/tokens")
        #expect(try HTTPClient.Target("http://example.test").path == "/")
        #expect(try HTTPClient.Target("http://example.test").hostHeader == "example.test")
    }
}
