#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// A small blocking HTTP/1.1 client for the emulator's own outbound calls (`mint --server`,
/// later blocking functions): name resolution, one request per connection, a deadline for the
/// whole exchange, Content-Length, chunked and read-to-close bodies. Plain `http://` only.
/// Foundation's URLSession is not used: on Linux it pulls in libcurl and breaks a static build.
public enum HTTPClient {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public struct Response: Sendable {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Sends one request to `url` (`http://host[:port]/path?query`) and reads the whole answer,
    /// failing once `timeoutSeconds` have passed without progress.
    public static func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8] = [],
        timeoutSeconds: Int = 10
    ) throws -> Response {
        let target = try Target(url)
        let socket = try connect(to: target, timeoutSeconds: timeoutSeconds)
        defer { close(socket) }
        var head = "\(method) \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        try write(Array((head + "\r\n").utf8) + body, to: socket)
        return try ResponseParser.parse(try readAll(from: socket))
    }

    struct Target {
        let host: String
        let port: String
        let path: String
        var hostHeader: String { port == "80" ? host : "\(host):\(port)" }

        init(_ url: String) throws {
            guard url.hasPrefix("http://") else { throw Failure("only http:// URLs are supported, not \(url)") }
            let rest = url.dropFirst("http://".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                host = String(authority[authority.index(after: authority.startIndex)..<close])
                let after = authority[authority.index(after: close)...]
                port = after.hasPrefix(":") ? String(after.dropFirst()) : "80"
            } else if let colon = authority.lastIndex(of: ":") {
                host = String(authority[..<colon])
                port = String(authority[authority.index(after: colon)...])
            } else {
                host = String(authority)
                port = "80"
            }
            guard !host.isEmpty, UInt16(port) != nil else { throw Failure("bad host or port in \(url)") }
        }
    }

    private static func connect(to target: Target, timeoutSeconds: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = SystemSocket.streamType
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, target.port, &hints, &results)
        guard status == 0, let first = results else {
            throw Failure("cannot resolve \(target.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socket = SystemSocket.openStream(family: address.pointee.ai_family, protocol: address.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            SystemSocket.setTimeouts(socket, seconds: timeoutSeconds)
            if SystemSocket.connectTo(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            lastError = String(cString: strerror(errno))
            close(socket)
        }
        throw Failure("cannot connect to \(target.hostHeader): \(lastError)")
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) throws {
        guard SystemSocket.transmitAll(socket, bytes) else { throw Failure("send failed: \(String(cString: strerror(errno)))") }
    }

    /// With `Connection: close` the server ends the stream after the answer.
    private static func readAll(from socket: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            guard count > 0 else {
                throw Failure(errno == EAGAIN ? "timed out waiting for the answer" : "recv failed: \(String(cString: strerror(errno)))")
            }
            received += chunk[..<count]
            guard received.count <= 64 << 20 else { throw Failure("answer larger than 64 MiB") }
        }
    }
}

/// Parses a complete HTTP/1.1 response: status line, headers, and a body framed by
/// Content-Length, chunked encoding, or the end of the stream. The bytes come from a peer we do not
/// control, so every size and offset in them is checked before use: bad framing throws, never traps.
enum ResponseParser {
    private static let headerEnd: [UInt8] = [13, 10, 13, 10]

    static func parse(_ bytes: [UInt8]) throws -> HTTPClient.Response {
        guard let end = firstIndex(of: headerEnd, in: bytes, from: 0) else {
            throw HTTPClient.Failure("the answer has no complete header")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let statusLine = lines.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].utf8.count == 3,
            let status = Int(statusLine[1]), (100...999).contains(status)
        else {
            throw HTTPClient.Failure("bad status line")
        }
        let headers = lines.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (String(line[..<colon]), String(line[colon...].dropFirst().drop { $0 == " " }))
        }
        let response = HTTPClient.Response(status: status, headers: headers, body: [])
        let rest = bytes[(end + headerEnd.count)...]
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            return HTTPClient.Response(status: status, headers: headers, body: try dechunk(Array(rest)))
        }
        if let declared = response.header("Content-Length") {
            let length = try contentLength(declared)
            guard rest.count >= length else { throw HTTPClient.Failure("the answer ended before its body") }
            return HTTPClient.Response(status: status, headers: headers, body: Array(rest.prefix(length)))
        }
        return HTTPClient.Response(status: status, headers: headers, body: Array(rest))
    }

    /// Digits only: `Int("+5")` and `Int("-1")` parse, but neither is a length.
    static func contentLength(_ text: String) throws -> Int {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let length = Int(trimmed)
        else { throw HTTPClient.Failure("bad Content-Length \(text)") }
        return length
    }

    static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = firstIndex(of: [13, 10], in: bytes, from: index) else {
                throw HTTPClient.Failure("bad chunk header")
            }
            let size = try chunkSize(bytes[index..<lineEnd])
            index = lineEnd + 2
            if size == 0 { return body }
            // `size` is at most 15 hex digits (see chunkSize), so `index + size` cannot overflow.
            guard bytes.count - index >= size else { throw HTTPClient.Failure("the answer ended inside a chunk") }
            body += bytes[index..<index + size]
            index += size
            guard bytes.count - index >= 2, bytes[index] == 13, bytes[index + 1] == 10 else {
                throw HTTPClient.Failure("a chunk does not end with CRLF")
            }
            index += 2
        }
    }

    /// The hex size before any `;extension`. At most 15 digits, so it fits an Int with room to add
    /// an offset: anything longer is no answer we could hold (the whole answer is capped at 64 MiB).
    static func chunkSize(_ line: ArraySlice<UInt8>) throws -> Int {
        let sizeField = line.prefix { $0 != UInt8(ascii: ";") }
        let digits = String(decoding: sizeField, as: UTF8.self).trimmingSpaces
        guard !digits.isEmpty, digits.utf8.count <= 15, digits.utf8.allSatisfy(\.isHexDigit),
            let size = Int(digits, radix: 16)
        else { throw HTTPClient.Failure("bad chunk size") }
        return size
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
