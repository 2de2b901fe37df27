/// Reads the bytes a new connection has sent so far the way libmicrohttpd 0.9.75 will read its
/// first request head, to refuse, in our own words, what libmicrohttpd would refuse with its own
/// HTML page before any callback of ours runs: a request line that is not `METHOD target
/// HTTP/1.x`, a header line without a colon, a head larger than its memory, a Content-Length that
/// is not a number (where it also sends its status line twice), and the limits the callbacks
/// check (so a head that breaks several gets the same answer either way). Only the head is read:
/// the body, and any request after the first, are libmicrohttpd's.
///
/// How libmicrohttpd reads a head, which this follows: lines end at LF, with or without CR
/// before it; empty lines before the request line are skipped; the method ends at the first
/// space, the version starts after the last (so a target may hold spaces, and a blank after the
/// version makes the version malformed); a value starts after the colon and its blanks.
struct RequestHeadScreen: Sendable {
    enum Verdict: Equatable {
        /// No complete head yet, and nothing to refuse in what has come.
        case incomplete
        /// A complete head that libmicrohttpd will take; the connection can be handed over.
        case acceptable
        case refused(HTTPRefusal)
    }

    let limits: HTTPLimits
    let maximumBodyBytes: Int

    /// What to make of `bytes`, the start of what the connection has sent (a body or a pipelined
    /// request may follow the head; they are not read).
    func verdict(on bytes: UnsafeRawBufferPointer) -> Verdict {
        var head = HeadReader(bytes.bindMemory(to: UInt8.self))
        let limit = limits.maximumHeadBytes
        var sawRequestLine = false
        var fields = FieldTally()
        while let line = head.nextLine() {
            if line.contains(0) {
                return .refused(HTTPRefusal(sawRequestLine ? .malformedHeaderLine : .malformedRequestLine))
            }
            if !sawRequestLine {
                if line.isEmpty { continue }  // libmicrohttpd skips empty lines before the request line
                sawRequestLine = true
                if let refusal = requestLineRefusal(line) { return .refused(refusal) }
                continue
            }
            if line.isEmpty {
                return head.consumed > limit ? .refused(fields.refusal(limits) ?? headTooLarge) : framingVerdict(fields)
            }
            if !fields.add(line) { return .refused(HTTPRefusal(.malformedHeaderLine)) }
        }
        guard bytes.count > limit else { return .incomplete }
        // Over the limit without an end: the request line alone, or the fields seen so far.
        if !sawRequestLine { return .refused(HTTPRefusal(.urlTooLong(limit: limits.maximumURLBytes))) }
        return .refused(fields.refusal(limits) ?? headTooLarge)
    }

    private var headTooLarge: HTTPRefusal { HTTPRefusal(.headTooLarge(limit: limits.maximumHeadBytes)) }

    /// `METHOD SP target SP HTTP/d.d`, split as libmicrohttpd splits it, then the target's limits.
    private func requestLineRefusal(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> HTTPRefusal? {
        let space = UInt8(ascii: " ")
        guard let methodEnd = line.firstIndex(of: space), methodEnd > line.startIndex else {
            return HTTPRefusal(.malformedRequestLine)
        }
        guard let targetStart = line[methodEnd...].firstIndex(where: { $0 != space }),
            let lastNonBlank = line.lastIndex(where: { $0 != space }),
            let versionSpace = line[targetStart...lastNonBlank].lastIndex(of: space)
        else {
            return HTTPRefusal(.malformedRequestLine)  // no target or no version: HTTP/0.9's form
        }
        // The version runs to the end of the line, trailing blanks included, as libmicrohttpd reads it.
        let version = line[(versionSpace + 1)...]
        if let refusal = Self.versionRefusal(version) { return refusal }
        return limits.refusal(forTarget: UnsafeBufferPointer(rebasing: line[targetStart..<versionSpace]))
    }

    /// `HTTP/d.d`, case-sensitive: major 1 is served, another major refused with 505, anything
    /// else is malformed.
    private static func versionRefusal(_ version: Slice<UnsafeBufferPointer<UInt8>>) -> HTTPRefusal? {
        let text = Array(version)
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), isDigit(text[5]), text[6] == UInt8(ascii: "."),
            isDigit(text[7])
        else { return HTTPRefusal(.malformedRequestLine) }
        return text[5] == UInt8(ascii: "1") ? nil : HTTPRefusal(.unsupportedHTTPVersion)
    }

    /// The fields' limits, then the body's framing and declared size.
    private func framingVerdict(_ fields: FieldTally) -> Verdict {
        if let refusal = fields.refusal(limits) { return .refused(refusal) }
        switch DeclaredBody(contentLengths: fields.contentLengths, transferEncodings: fields.transferEncodings) {
        case .refused(let refusal): return .refused(refusal)
        case .length(let length) where length > maximumBodyBytes:
            return .refused(HTTPRefusal(.bodyTooLarge(limit: maximumBodyBytes)))
        case .length, .none, .chunked: return .acceptable
        }
    }
}

/// Complete lines, one after another, from the start of the peeked bytes.
private struct HeadReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes up to the end of the last line returned, its line end included.
    private(set) var consumed = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next line without its LF or CRLF; nil when no further LF has arrived.
    mutating func nextLine() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard let lineFeed = bytes[consumed...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var end = lineFeed
        if end > consumed && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        defer { consumed = lineFeed + 1 }
        return bytes[consumed..<end]
    }
}

/// The header fields seen so far: how many, their bytes (names and values, as the callbacks count
/// them), and the values that frame the body.
private struct FieldTally {
    private(set) var count = 0
    private(set) var bytes = 0
    private(set) var contentLengths: [String] = []
    private(set) var transferEncodings: [String] = []

    /// Adds one header line; false when it is not `name: value`. A line starting with a blank (an
    /// obsolete folded continuation) is refused too, as RFC 9112 allows: libmicrohttpd appends it
    /// to the previous field's name, so what the handler saw would not be what was sent.
    mutating func add(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = line.first, !blank(first), let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = String(decoding: line[..<colon], as: UTF8.self)
        let value = line[(colon + 1)...].drop(while: blank)
        count += 1
        bytes += name.utf8.count + value.count
        if DeclaredBody.isContentLength(name) {
            contentLengths.append(String(decoding: value, as: UTF8.self))
        } else if DeclaredBody.isTransferEncoding(name) {
            transferEncodings.append(String(decoding: value, as: UTF8.self))
        }
        return true
    }

    func refusal(_ limits: HTTPLimits) -> HTTPRefusal? { limits.refusal(forHeaderCount: count, bytes: bytes) }
}
