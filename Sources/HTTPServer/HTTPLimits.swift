/// What one request and the server as a whole may use, set explicitly rather than left to
/// libmicrohttpd's defaults. A request over a limit is refused before the handler sees it, with
/// the answer `HTTPHandler.respondToRefusal` renders: a new connection's first request head by
/// `ConnectionScreener`, before libmicrohttpd reads it, and every request again in its callbacks.
public struct HTTPLimits: Sendable, Equatable {
    /// The request target (path and query, as sent). Longer: 414.
    public var maximumURLBytes: Int
    /// `&`-separated query parameters. More: 414 (libmicrohttpd hangs on a few hundred if let through).
    public var maximumQueryParameters: Int
    /// Header fields. More: 431.
    public var maximumHeaderCount: Int
    /// Header names and values together. More: 431.
    public var maximumHeaderBytes: Int
    /// Open connections; one over the limit is closed at once. The same number again may be
    /// accepted and waiting for their first request head (see `ConnectionScreener`).
    public var maximumConnections: Int

    public init(
        maximumURLBytes: Int = 8 << 10, maximumQueryParameters: Int = 256, maximumHeaderCount: Int = 128,
        maximumHeaderBytes: Int = 16 << 10, maximumConnections: Int = 256
    ) {
        self.maximumURLBytes = maximumURLBytes
        self.maximumQueryParameters = maximumQueryParameters
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumConnections = maximumConnections
    }

    /// The whole request head (request line, header lines, line ends), as the screener reads a
    /// new connection's first one: what the URL and header limits let through, with 8 bytes a
    /// field for `: `, line ends and folding, and 1 KiB for the method and version. Longer: 431
    /// (414 while the request line itself has not ended). It also keeps every head handed to
    /// libmicrohttpd well inside `connectionMemoryBytes`.
    public var maximumHeadBytes: Int { maximumURLBytes + maximumHeaderBytes + 8 * maximumHeaderCount + 1024 }

    /// libmicrohttpd's memory pool per connection. A kept-alive connection's later heads are not
    /// screened, so the pool must hold the largest head our limits let through and libmicrohttpd's
    /// record (56 bytes) of each of its headers and parameters, for our limits and JSON answers to
    /// apply first; a head that outgrows it gets libmicrohttpd's own answer. libmicrohttpd reads
    /// a head into the first half of the pool and puts the records at its end, so: room for one
    /// head, and as much again or the records, whichever is more (52 KiB with the defaults; a
    /// test pins a head at every limit at once, on a kept-alive connection). No larger:
    /// libmicrohttpd zeroes the whole pool after every request and half of it again as it
    /// shrinks the read buffer, 1.5 bytes of `memset` per byte here (72 KiB cost 30k instructions
    /// a request more; at 128 KiB it was a tenth of a lookup's CPU).
    var connectionMemoryBytes: Int {
        maximumHeadBytes + max(maximumHeadBytes, 64 * (maximumQueryParameters + maximumHeaderCount))
    }
}

/// How much of a body over the limit (`maximumBodyBytes`) is read and dropped around the 413: a
/// client that sends its whole body before it reads (most do, unless they ask `Expect: 100-continue`)
/// found the connection closed under its write, a broken pipe or a reset instead of the answer.
/// Past this the connection is closed, as it is when the client waits for `100 Continue`.
func oversizeDrainBytes(maximumBodyBytes: Int) -> Int { maximumBodyBytes * 8 }

/// A request the server refused before the handler saw it, and the status to send.
public struct HTTPRefusal: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case urlTooLong(limit: Int)
        case tooManyQueryParameters(limit: Int)
        case tooManyHeaders(limit: Int)
        case headersTooLarge(limit: Int)
        case bodyTooLarge(limit: Int)
        /// Content-Length that is not one decimal number (`abc`, `-1`, `1.5`, empty, `0x10`, two values).
        case malformedContentLength
        /// The request line and header fields together are over `HTTPLimits.maximumHeadBytes`.
        case headTooLarge(limit: Int)
        /// Transfer-Encoding other than one `chunked`: the body's end could not be found.
        case unsupportedTransferEncoding
        /// Not `METHOD target HTTP/d.d` (no target, no version, a NUL byte).
        case malformedRequestLine
        /// A header line without a colon, or with a NUL byte.
        case malformedHeaderLine
        /// A well-formed version other than HTTP/1.x (`HTTP/2.0`, `HTTP/0.9`).
        case unsupportedHTTPVersion
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var status: Int {
        switch reason {
        case .urlTooLong, .tooManyQueryParameters: 414
        case .tooManyHeaders, .headersTooLarge, .headTooLarge: 431
        case .bodyTooLarge: 413
        case .malformedContentLength, .unsupportedTransferEncoding, .malformedRequestLine, .malformedHeaderLine: 400
        case .unsupportedHTTPVersion: 505
        }
    }

    /// A sentence for the error body.
    public var description: String {
        switch reason {
        case .urlTooLong(let limit): "The request URL is longer than \(limit) bytes."
        case .tooManyQueryParameters(let limit): "The request URL has more than \(limit) query parameters."
        case .tooManyHeaders(let limit): "The request has more than \(limit) header fields."
        case .headersTooLarge(let limit): "The request's header fields are larger than \(limit) bytes."
        case .bodyTooLarge(let limit): "The request body is larger than \(limit) bytes."
        case .malformedContentLength: "The request's Content-Length is not a single decimal number."
        case .headTooLarge(let limit): "The request line and header fields are larger than \(limit) bytes."
        case .unsupportedTransferEncoding: "The request's Transfer-Encoding is not chunked."
        case .malformedRequestLine: "The request line is not METHOD, target and HTTP version."
        case .malformedHeaderLine: "A request header line is not a name, a colon and a value."
        case .unsupportedHTTPVersion: "The request's HTTP version is not 1.x."
        }
    }
}
