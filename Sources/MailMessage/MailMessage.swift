/// An Internet message (RFC 5322) with its MIME structure (RFC 2045–2047, 2231) read: header
/// fields decoded, the text and HTML bodies found and decoded, and attachments listed. Reading is
/// lenient, as a mail catcher's must be (what a mailer sends is shown, not judged), and bounded:
/// nesting and part counts are capped, so no message makes unbounded work.
public struct MailMessage: Sendable {
    public struct Attachment: Sendable, Equatable {
        public var filename: String?
        public var contentType: String
        /// Decoded size in bytes.
        public var size: Int
        /// `inline` or `attachment`, as the part's Content-Disposition says (`attachment` when absent).
        public var disposition: String
        public var contentId: String?

        public init(filename: String?, contentType: String, size: Int, disposition: String, contentId: String?) {
            self.filename = filename
            self.contentType = contentType
            self.size = size
            self.disposition = disposition
            self.contentId = contentId
        }
    }

    public let headers: MailHeaders
    public private(set) var text: String?
    public private(set) var html: String?
    public private(set) var attachments: [Attachment] = []
    /// Each attachment's decoded bytes, in the order of `attachments`.
    private var attachmentContents: [[UInt8]] = []

    /// Multipart nesting deeper than this is listed as attachments, not opened.
    static let maxDepth = 16
    /// Parts beyond this many are not read.
    static let maxParts = 256

    public init(raw: [UInt8]) {
        let (headerBytes, body) = Self.splitHeaders(raw[...])
        headers = MailHeaders(parsing: headerBytes)
        var partCount = 0
        read(headers: headers, body: body, depth: 0, partCount: &partCount)
    }

    /// The decoded bytes of `attachments[index]`, nil past the end.
    public func attachmentContent(at index: Int) -> [UInt8]? {
        attachmentContents.indices.contains(index) ? attachmentContents[index] : nil
    }

    public var subject: String? { headers["Subject"] }
    public var messageId: String? { headers["Message-ID"] }

    /// The addresses of an address header (`To`, `Cc`, `From`), display names dropped.
    public func addresses(_ name: String) -> [String] {
        headers.all(name).flatMap(AddressList.addresses(in:))
    }

    // MARK: - Reading parts

    private mutating func read(headers: MailHeaders, body: ArraySlice<UInt8>, depth: Int, partCount: inout Int) {
        partCount += 1
        let type = ContentType(headers["Content-Type"])
        let disposition = HeaderParameters(headers["Content-Disposition"] ?? "")
        let filename = disposition.value("filename") ?? type.parameters.value("name")
        let isAttachment = disposition.token == "attachment" || filename != nil

        if type.isMultipart, !isAttachment, depth < Self.maxDepth, let boundary = type.parameters.value("boundary") {
            for part in Self.parts(of: body, boundary: boundary) {
                guard partCount < Self.maxParts else { return }
                let (partHeaderBytes, partBody) = Self.splitHeaders(part)
                read(headers: MailHeaders(parsing: partHeaderBytes), body: partBody, depth: depth + 1, partCount: &partCount)
            }
            return
        }
        let decoded = TransferEncoding.decode(body, encoding: headers["Content-Transfer-Encoding"])
        if !isAttachment, type.mediaType == "text/plain", text == nil {
            text = Charset.decode(decoded, charset: type.parameters.value("charset"))
        } else if !isAttachment, type.mediaType == "text/html", html == nil {
            html = Charset.decode(decoded, charset: type.parameters.value("charset"))
        } else {
            attachments.append(Attachment(
                filename: filename, contentType: type.mediaType, size: decoded.count,
                disposition: disposition.token.isEmpty ? "attachment" : disposition.token,
                contentId: headers["Content-ID"].map { $0.trimmingCharacters(in: "<> ") }))
            attachmentContents.append(decoded)
        }
    }

    /// Header block and body: split at the first empty line (CRLF CRLF, or bare LF LF).
    static func splitHeaders(_ bytes: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        var index = bytes.startIndex
        var lineStart = index
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line == [UInt8(ascii: "\r")] {
                    return (bytes[bytes.startIndex..<lineStart], bytes[(index + 1)...])
                }
                lineStart = index + 1
            }
            index += 1
        }
        // No empty line: the whole thing is headers when it starts like a header, else body.
        let looksLikeHeaders = bytes.first.map { $0 != UInt8(ascii: " ") } ?? false
            && bytes.prefix(while: { $0 != UInt8(ascii: "\n") }).contains(UInt8(ascii: ":"))
        return looksLikeHeaders ? (bytes, bytes[bytes.endIndex...]) : (bytes[bytes.startIndex..<bytes.startIndex], bytes)
    }

    /// The parts between `--boundary` lines, up to `--boundary--` (RFC 2046 §5.1.1); the CRLF
    /// before a delimiter belongs to the delimiter.
    static func parts(of body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var lineStart = body.startIndex
        while lineStart < body.endIndex {
            let lineEnd = body[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex
            let line = body[lineStart..<lineEnd]
            if line.starts(with: delimiter) {
                let rest = line.dropFirst(delimiter.count)
                let isClose = rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
                if isClose || rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                    if let start = partStart {
                        var end = lineStart
                        if end > start, body[end - 1] == UInt8(ascii: "\n") { end -= 1 }
                        if end > start, body[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                        parts.append(body[start..<max(start, end)])
                    }
                    if isClose { return parts }
                    partStart = min(lineEnd + 1, body.endIndex)
                }
            }
            lineStart = lineEnd + 1
        }
        // No closing delimiter: what was opened still counts.
        if let start = partStart, start < body.endIndex { parts.append(body[start...]) }
        return parts
    }
}

extension StringProtocol {
    /// Drops the given characters from both ends (Foundation's version needs a CharacterSet).
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop(while: { characters.contains($0) }).reversed().drop(while: { characters.contains($0) }).reversed())
    }
}
