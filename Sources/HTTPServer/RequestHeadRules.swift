/// The checks a request head must pass, in one place for both readers of a head: the screener,
/// which reads a new connection's raw bytes, and libmicrohttpd's callbacks, which read its parsed
/// values. Both then refuse the same heads with the same reasons.
extension HTTPLimits {
    /// The request target as sent (path and query, before decoding): its length, then its
    /// `&`-separated parameters.
    func refusal(forTarget target: UnsafeBufferPointer<UInt8>) -> HTTPRefusal? {
        if target.count > maximumURLBytes { return HTTPRefusal(.urlTooLong(limit: maximumURLBytes)) }
        guard let question = target.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        let ampersand = UInt8(ascii: "&")
        let parameters = 1 + target[(question + 1)...].reduce(0) { count, byte in byte == ampersand ? count + 1 : count }
        if parameters > maximumQueryParameters { return HTTPRefusal(.tooManyQueryParameters(limit: maximumQueryParameters)) }
        return nil
    }

    /// The header fields: their count, then the bytes of their names and values together.
    func refusal(forHeaderCount count: Int, bytes: Int) -> HTTPRefusal? {
        if count > maximumHeaderCount { return HTTPRefusal(.tooManyHeaders(limit: maximumHeaderCount)) }
        if bytes > maximumHeaderBytes { return HTTPRefusal(.headersTooLarge(limit: maximumHeaderBytes)) }
        return nil
    }
}

/// How a request says where its body ends, or why that cannot be trusted.
enum DeclaredBody: Equatable {
    case none
    /// All digits; a number too big for `Int` is `Int.max`, certainly over any limit.
    case length(Int)
    case chunked
    case refused(HTTPRefusal)

    /// From the values of every Content-Length and Transfer-Encoding field, as received with
    /// leading blanks dropped (libmicrohttpd keeps trailing ones, and so a `5 ` is malformed here
    /// as it is there). A Content-Length must be one decimal number, even beside a
    /// Transfer-Encoding (which wins); a Transfer-Encoding must be one `chunked`, the only coding
    /// libmicrohttpd decodes: with any other it would read the body until the connection closed.
    init(contentLengths: [String], transferEncodings: [String]) {
        var length: Int?
        if let text = contentLengths.first {
            guard contentLengths.count == 1, !text.isEmpty,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else {
                self = .refused(HTTPRefusal(.malformedContentLength))
                return
            }
            length = Int(text) ?? Int.max
        }
        if let coding = transferEncodings.first {
            let isChunked = transferEncodings.count == 1 && coding.lowercased() == "chunked"
            self = isChunked ? .chunked : .refused(HTTPRefusal(.unsupportedTransferEncoding))
            return
        }
        self = length.map { .length($0) } ?? .none
    }

    // Bytes folded in place rather than `lowercased()`, which made a string for every POST.
    static func isContentLength(_ name: String) -> Bool { HTTPHeaders.sameName(name, "content-length") }
    static func isTransferEncoding(_ name: String) -> Bool { HTTPHeaders.sameName(name, "transfer-encoding") }
}
