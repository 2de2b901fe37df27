#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Test support, shared by the test targets (like Hummingbird's testing product).
/// A tiny blocking HTTP/1.1 client over one TCP socket: it writes exactly the bytes a test gives
/// it and parses exactly one response at a time, so tests can drive keep-alive, `Expect`,
/// chunked uploads and early answers byte by byte.
public final class RawHTTPConnection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Response {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let socket: Int32
    private var buffered: [UInt8] = []

    /// Connects to 127.0.0.1 (or `::1`); reads give up after `timeoutSeconds` so a bug cannot hang the
    /// suite. 30 s, not less: on a loaded machine (sanitizer builds, parallel suites) making a test
    /// RSA key on first use alone has taken over 5 s.
    public init(port: UInt16, ipv6: Bool = false, timeoutSeconds: Int = 30) throws {
        do {
            socket = try SocketAddress(host: ipv6 ? "::1" : "127.0.0.1", port: port)!.connect(timeoutSeconds: timeoutSeconds)
        } catch {
            // `connect` closed its socket. The deinit runs (every property is set) and must not close
            // that number again: another thread may have been given it since.
            socket = -1
            throw Failure(description: "connect: \(error)")
        }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// True when nothing listens on the port any more (the connection attempt is refused).
    public static func isRefused(port: UInt16) -> Bool {
        do {
            _ = try RawHTTPConnection(port: port)
            return false
        } catch {
            return String(describing: error).contains("refused")
        }
    }

    /// Writes all of `bytes`. A server that closes early must fail the write, not kill the test process
    /// (SIGPIPE is stopped per call on Linux, per socket on macOS: see `SystemSocket`).
    public func send(_ bytes: [UInt8]) throws {
        guard SystemSocket.transmitAll(socket, bytes) else { throw Failure(description: "send: \(Self.lastError())") }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with a Content-Length body (when `body` is not nil).
    public func sendRequest(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + (body ?? []))
    }

    /// Sends a request and reads its response.
    public func exchange(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> Response {
        try sendRequest(method, target, headers: headers, body: body)
        return try readResponse(hasBody: method != "HEAD")
    }

    /// Reads one response: status line, headers, and a Content-Length body (none for HEAD or 1xx).
    public func readResponse(hasBody: Bool = true) throws -> Response {
        let head = try readUntilBlankLine()
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.filter { !$0.isEmpty }.map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = line[colon...].dropFirst().drop { $0 == " " }
            return (name: String(line[..<colon]), value: String(value))
        }
        let response = Response(status: status, headers: headers, body: [])
        guard hasBody, status >= 200 else { return response }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        return Response(status: status, headers: headers, body: try read(count: length))
    }

    /// Half-closes: the server reads end-of-stream, and the connection can still read its answer.
    public func shutdownWrite() { SystemSocket.shutDown(socket, bothWays: false) }

    /// Everything the server sends until it closes the connection (or the read timeout passes,
    /// which throws), so a test can see every byte: a second status line, a trailing page.
    public func readToEnd() throws -> [UInt8] {
        while true {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if received == 0 || (received < 0 && errno == ECONNRESET) { break }
            guard received > 0 else { throw Failure(description: "recv: \(Self.lastError())") }
            buffered += chunk[..<received]
        }
        defer { buffered = [] }
        return buffered
    }

    /// True when the server has closed its side (reading yields end-of-stream or a reset).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) <= 0
    }

    private func readUntilBlankLine() throws -> String {
        let separator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = buffered.indices.dropLast(3).first(where: { Array(buffered[$0..<$0 + 4]) == separator }) {
                let head = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeFirst(end + 4)
                return head
            }
            try fill()
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        defer { buffered.removeFirst(count) }
        return Array(buffered[..<count])
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard received > 0 else {
            throw Failure(description: received == 0 ? "connection closed by server" : "recv: \(Self.lastError())")
        }
        buffered += chunk[..<received]
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
