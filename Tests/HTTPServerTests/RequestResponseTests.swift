import HTTPTestSupport
import HTTPServer
import Testing

@Suite struct RequestResponseTests {
    @Test func requestArrivesIntact() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }
        // Every byte value, plus multi-byte UTF-8: the body must arrive untouched.
        let body = Array(0...255 as ClosedRange<UInt8>) + Array("héllo ✓ 🔥".utf8)

        let response = try RawHTTPConnection(port: server.port).exchange(
            "POST", "/v1/accounts:signUp?key=fake%20key&flag&empty=&name=%C3%A9t%C3%A9&key=second",
            headers: [("X-Client-Version", "Node/1.2"), ("Content-Type", "application/octet-stream")],
            body: body)

        #expect(response.status == 200)
        let request = try #require(handler.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/accounts:signUp")
        #expect(request.query.map(\.name) == ["key", "flag", "empty", "name", "key"])
        #expect(request.query.map(\.value) == ["fake key", "", "", "été", "second"])
        #expect(request.queryValue("key") == "fake key")
        #expect(request.headers["x-client-version"] == "Node/1.2")
        #expect(request.headers["CONTENT-TYPE"] == "application/octet-stream")
        #expect(request.headers["Content-Length"] == "\(body.count)")
        #expect(request.headers.fields.map(\.name).starts(with: ["Host", "X-Client-Version", "Content-Type"]))
        #expect(request.body == body)
    }

    @Test func queryDecodingFollowsFormRules() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }

        _ = try RawHTTPConnection(port: server.port).exchange("GET", "/?q=a+b&plus=%2B&bad=%zz&&eq==x")

        // `+` is a space in query values, `%2B` a plus; a broken escape stays as sent.
        #expect(handler.requests.first?.query.map(\.name) == ["q", "plus", "bad", "eq"])
        #expect(handler.requests.first?.query.map(\.value) == ["a b", "+", "%zz", "=x"])
    }

    @Test func pathIsPercentDecoded() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }

        _ = try RawHTTPConnection(port: server.port).exchange("GET", "/emulator/v1/projects/my%20project/accounts")

        #expect(handler.requests.first?.path == "/emulator/v1/projects/my project/accounts")
        #expect(handler.requests.first?.query.isEmpty == true)
    }

    @Test func statusHeadersAndBodyGoBack() throws {
        let server = try startedServer(
            RecordingHandler { _ in
                var headers = HTTPHeaders()
                headers.add("Content-Type", "application/json; charset=UTF-8")
                headers.add("Set-Cookie", "a=1")
                headers.add("Set-Cookie", "b=2")
                headers.add("Access-Control-Allow-Origin", "*")
                return HTTPResponse(status: 418, headers: headers, body: Array("{\"é\":\"✓\"}".utf8))
            })
        defer { server.shutdown() }

        let response = try RawHTTPConnection(port: server.port).exchange("GET", "/")

        #expect(response.status == 418)
        #expect(response.header("Content-Type") == "application/json; charset=UTF-8")
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Content-Length") == "\(Array("{\"é\":\"✓\"}".utf8).count)")
        #expect(response.text == "{\"é\":\"✓\"}")
    }

    @Test func handlerContentLengthIsReplacedByTheRealOne() throws {
        let server = try startedServer(
            RecordingHandler { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Length", "999")]), body: [1, 2, 3])
            })
        defer { server.shutdown() }

        let response = try RawHTTPConnection(port: server.port).exchange("GET", "/")

        #expect(response.header("Content-Length") == "3")
        #expect(response.body == [1, 2, 3])
    }

    @Test func headerWithLineBreakIsDropped() throws {
        let server = try startedServer(
            RecordingHandler { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("X-Evil", "a\r\nX-Injected: 1"), ("X-Ok", "fine")]))
            })
        defer { server.shutdown() }

        let response = try RawHTTPConnection(port: server.port).exchange("GET", "/")

        #expect(response.header("X-Ok") == "fine")
        #expect(response.header("X-Evil") == nil)
        #expect(response.header("X-Injected") == nil)
    }

    @Test func invalidStatusBecomes500() throws {
        let server = try startedServer(RecordingHandler { _ in HTTPResponse(status: 42) })
        defer { server.shutdown() }

        #expect(try RawHTTPConnection(port: server.port).exchange("GET", "/").status == 500)
    }

    @Test(arguments: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func everyMethodReachesTheHandler(method: String) throws {
        let handler = RecordingHandler { request in
            HTTPResponse(status: 200, body: Array("via \(request.method)".utf8))
        }
        let server = try startedServer(handler)
        defer { server.shutdown() }

        let response = try RawHTTPConnection(port: server.port).exchange(
            method, "/resource", headers: [("Origin", "http://localhost:3000")], body: method == "GET" ? nil : [])

        #expect(handler.requests.map(\.method) == [method])
        #expect(response.status == 200)
        // HEAD: MHD sends the headers the GET would have, without the body.
        #expect(response.header("Content-Length") == "\(4 + method.utf8.count)")
        #expect(response.text == (method == "HEAD" ? "" : "via \(method)"))
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let handler = RecordingHandler { request in HTTPResponse(status: 200, body: Array(request.path.utf8)) }
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        let first = try connection.exchange("POST", "/first", body: Array("one".utf8))
        let second = try connection.exchange("GET", "/second")
        let third = try connection.exchange("DELETE", "/third")

        #expect([first.text, second.text, third.text] == ["/first", "/second", "/third"])
        #expect(first.header("Connection") == nil)
        #expect(handler.requests.map(\.body) == [Array("one".utf8), [], []])
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try startedServer(RecordingHandler { HTTPResponse(status: 200, body: Array($0.path.utf8)) })
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")

        #expect(try connection.readResponse().text == "/a")
        #expect(try connection.readResponse().text == "/b")
    }

    @Test func expectContinueGetsInterimResponseThenTheAnswer() throws {
        let handler = RecordingHandler { HTTPResponse(status: 200, body: $0.body) }
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.sendRequest("POST", "/upload", headers: [("Expect", "100-continue"), ("Content-Length", "5")])
        let interim = try connection.readResponse()
        try connection.send("hello")
        let final = try connection.readResponse()

        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(final.text == "hello")
    }

    @Test func postWithoutContentLengthHasAnEmptyBody() throws {
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }

        let response = try RawHTTPConnection(port: server.port).exchange("POST", "/no-length")

        #expect(response.status == 200)
        #expect(handler.requests.first?.body == [])
    }

    @Test func chunkedUploadIsReassembled() throws {
        let handler = RecordingHandler { HTTPResponse(status: 200, body: $0.body) }
        let server = try startedServer(handler)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.send(
            "POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n")

        #expect(try connection.readResponse().text == "hello, world")
    }

    @Test func formEncodedBodyIsLeftRaw() throws {
        // MHD could parse url-encoded POST data into values; without a post processor it must not.
        let handler = RecordingHandler()
        let server = try startedServer(handler)
        defer { server.shutdown() }

        _ = try RawHTTPConnection(port: server.port).exchange(
            "POST", "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("grant_type=refresh_token&refresh_token=abc%3D".utf8))

        #expect(handler.requests.first?.body == Array("grant_type=refresh_token&refresh_token=abc%3D".utf8))
    }
}
