@testable import HTTPServer
import Testing

/// The screener's reading of a first request head, without sockets: what it hands to
/// libmicrohttpd, what it waits for, and what it refuses (and why).
@Suite struct RequestHeadScreenTests {
    private let screen = RequestHeadScreen(limits: HTTPLimits(), maximumBodyBytes: 1 << 20)

    private func verdict(_ text: String) -> RequestHeadScreen.Verdict {
        Array(text.utf8).withUnsafeBytes { screen.verdict(on: $0) }
    }

    private func refusal(_ text: String) -> HTTPRefusal.Reason? {
        if case .refused(let refusal) = verdict(text) { return refusal.reason }
        return nil
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.1\nHost: x\n\n",  // bare LF, as libmicrohttpd accepts
        "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",  // empty lines before the request line are skipped
        "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",  // a space in the target: libmicrohttpd splits at the last
        "GET   /   HTTP/1.1\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost : x\r\n\r\n",
        "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
        "POST /x HTTP/1.1\r\ncontent-length:  05\r\n\r\nhello",
        "POST /x HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "POST /x HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}GET / HTTP/2.0\r\n\r\n",  // only the first head is read
        "GET / HTTP/1.1\r\nX-Empty:\r\n\r\n",
    ])
    func acceptable(_ head: String) {
        #expect(verdict(head) == .acceptable, "\(head.debugDescription)")
    }

    @Test(arguments: ["", "\r\n", "GET / HT", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: x\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r"])
    func incomplete(_ head: String) {
        #expect(verdict(head) == .incomplete, "\(head.debugDescription)")
    }

    @Test(arguments: ["abc", "-1", "1.5", "", "0x10", "5 ", "+5", "5, 5"])
    func aContentLengthThatIsNotOneNumberIs400(_ value: String) {
        #expect(refusal("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n{}") == .malformedContentLength)
    }

    @Test func twoContentLengthsAre400() {
        #expect(refusal("POST /x HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}") == .malformedContentLength)
    }

    @Test(arguments: ["2000000", "99999999999999999999999999"])
    func aLengthOverTheBodyLimitIs413(_ value: String) {
        #expect(refusal("POST /x HTTP/1.1\r\nContent-Length: \(value)\r\n\r\n") == .bodyTooLarge(limit: 1 << 20))
    }

    @Test(arguments: ["gzip", "chunked, gzip", "gzip, chunked", "identity", "chunked "])
    func aTransferEncodingOtherThanChunkedIs400(_ value: String) {
        #expect(refusal("POST /x HTTP/1.1\r\nTransfer-Encoding: \(value)\r\n\r\n") == .unsupportedTransferEncoding)
    }

    @Test func twoTransferEncodingsAre400() {
        #expect(
            refusal("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n")
                == .unsupportedTransferEncoding)
    }

    /// Refused as soon as the request line is in, as libmicrohttpd refuses it, without waiting
    /// for the rest of the head.
    @Test(arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/3.1"])
    func anotherMajorVersionIs505(_ version: String) {
        #expect(refusal("GET / \(version)\r\n") == .unsupportedHTTPVersion)
    }

    @Test(arguments: [
        "GET /\r\n\r\n", "GET\r\n\r\n", "GET \r\n\r\n", " / HTTP/1.1\r\n\r\n", "GET / FOO/1.1\r\n\r\n",
        "GET / http/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "GET / HTTP/1.10\r\n\r\n", "GET / HTTP/1.1\0\r\n\r\n",
    ])
    func aMalformedRequestLineIs400(_ head: String) {
        #expect(refusal(head) == .malformedRequestLine, "\(head.debugDescription)")
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\n\tX: y\r\n\r\n", "GET / HTTP/1.1\r\nX-A\0: b\r\n\r\n",
    ])
    func aMalformedHeaderLineIs400(_ head: String) {
        #expect(refusal(head) == .malformedHeaderLine, "\(head.debugDescription)")
    }

    @Test func theTargetsLimitsAreTheCallbacks() {
        let limits = HTTPLimits()
        let long = String(repeating: "a", count: limits.maximumURLBytes)
        #expect(refusal("GET /\(long) HTTP/1.1\r\n\r\n") == .urlTooLong(limit: limits.maximumURLBytes))
        let query = (0...limits.maximumQueryParameters).map { "p\($0)=v" }.joined(separator: "&")
        #expect(refusal("GET /x?\(query) HTTP/1.1\r\n\r\n") == .tooManyQueryParameters(limit: limits.maximumQueryParameters))
        let allowed = (1..<limits.maximumQueryParameters).map { "p\($0)=v" }.joined(separator: "&")
        #expect(verdict("GET /x?\(allowed) HTTP/1.1\r\n\r\n") == .acceptable)
    }

    @Test func theHeadersLimitsAreTheCallbacks() {
        let limits = HTTPLimits()
        let many = (0...limits.maximumHeaderCount).map { "X-\($0): v\r\n" }.joined()
        #expect(refusal("GET / HTTP/1.1\r\n\(many)\r\n") == .tooManyHeaders(limit: limits.maximumHeaderCount))
        let allowed = (1..<limits.maximumHeaderCount).map { "X-\($0): v\r\n" }.joined()
        #expect(verdict("GET / HTTP/1.1\r\n\(allowed)\r\n") == .acceptable)
        let big = String(repeating: "v", count: limits.maximumHeaderBytes)
        #expect(refusal("GET / HTTP/1.1\r\nX: \(big)\r\n\r\n") == .headersTooLarge(limit: limits.maximumHeaderBytes))
    }

    /// Over the head limit with no end in sight: the request line alone is 414, otherwise what
    /// the complete fields seen break, or the head's own limit.
    @Test func aHeadOverTheLimitIsRefusedBeforeItEnds() {
        let limits = HTTPLimits()
        let endless = String(repeating: "a", count: limits.maximumHeadBytes + 1)
        #expect(refusal("GET /\(endless)") == .urlTooLong(limit: limits.maximumURLBytes))
        #expect(refusal("GET / HTTP/1.1\r\nX: \(endless)") == .headTooLarge(limit: limits.maximumHeadBytes))
        let big = String(repeating: "v", count: limits.maximumHeaderBytes)
        #expect(refusal("GET / HTTP/1.1\r\nX: \(big)\r\nY: \(endless)") == .headersTooLarge(limit: limits.maximumHeaderBytes))
        let padded = String(repeating: " ", count: limits.maximumHeadBytes)
        #expect(refusal("GET / HTTP/1.1\r\nX:\(padded)v\r\n\r\n") == .headTooLarge(limit: limits.maximumHeadBytes))
        let tiny = String(repeating: "a:\r\n", count: limits.maximumHeadBytes / 4 + 1)
        #expect(refusal("GET / HTTP/1.1\r\n\(tiny)") == .tooManyHeaders(limit: limits.maximumHeaderCount))
    }

    @Test func refusalsHaveTheirStatuses() {
        #expect(HTTPRefusal(.unsupportedHTTPVersion).status == 505)
        #expect(HTTPRefusal(.headTooLarge(limit: 1)).status == 431)
        #expect(HTTPRefusal(.malformedRequestLine).status == 400)
        #expect(HTTPRefusal(.malformedHeaderLine).status == 400)
        #expect(HTTPRefusal(.unsupportedTransferEncoding).status == 400)
    }
}
