/// What one request and the server as a whole may use, set explicitly rather than left to
/// libmicrohttpd's defaults. A request over a limit is refused before the handler sees it, with
/// the answer `HTTPHandler.respondToRefusal` renders.
public struct HTTPLimits: Sendable, Equatable {
    /// The request target (path and query, as sent). Longer: 414.
    public var maximumURLBytes: Int
    /// `&`-separated query parameters. More: 414 (libmicrohttpd hangs on a few hundred if let through).
    public var maximumQueryParameters: Int
    /// Header fields. More: 431.
    public var maximumHeaderCount: Int
    /// Header names and values together. More: 431.
    public var maximumHeaderBytes: Int
    /// Open connections; libmicrohttpd refuses (closes) a connection over the limit at accept.
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

    /// libmicrohttpd's memory pool per connection. It holds the request line, the headers and a
    /// record (about 56 bytes) of each header and parameter; a head that outgrows it gets
    /// libmicrohttpd's own answer. So it is sized to hold twice what our own limits let through,
    /// and at least 128 KiB, which still holds a hostile head of a thousand header fields, so
    /// that our limits (and our JSON answers) apply first. No larger: libmicrohttpd zeroes the
    /// whole pool after every request, which at 256 KiB was an eighth of a lookup's CPU.
    var connectionMemoryBytes: Int {
        max(128 << 10, 2 * (maximumURLBytes + maximumHeaderBytes) + 64 * (maximumQueryParameters + maximumHeaderCount))
    }
}

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
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var status: Int {
        switch reason {
        case .urlTooLong, .tooManyQueryParameters: 414
        case .tooManyHeaders, .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .malformedContentLength: 400
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
        }
    }
}
