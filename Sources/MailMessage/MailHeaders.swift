/// A message's header fields in order, unfolded (RFC 5322 §2.2.3), with encoded words decoded
/// (RFC 2047). Names compare case-insensitively.
public struct MailHeaders: Sendable, Sequence {
    public struct Field: Sendable, Equatable {
        public let name: String
        /// Unfolded and decoded.
        public let value: String
    }

    public private(set) var fields: [Field] = []
    /// Header fields beyond this many are not read.
    static let maxFields = 1000

    public init(parsing bytes: ArraySlice<UInt8>) {
        var current: [UInt8] = []
        func finish() {
            defer { current.removeAll(keepingCapacity: true) }
            guard fields.count < Self.maxFields, let colon = current.firstIndex(of: UInt8(ascii: ":")) else { return }
            let name = String(decoding: current[..<colon], as: UTF8.self).trimmingCharacters(in: " \t")
            guard !name.isEmpty else { return }
            let raw = String(decoding: current[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: " \t")
            fields.append(Field(name: name, value: EncodedWords.decode(raw)))
        }
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if let first = content.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                current.append(contentsOf: content)  // a folded line continues the field
            } else {
                finish()
                current.append(contentsOf: content)
            }
        }
        finish()
    }

    public subscript(name: String) -> String? {
        fields.first(where: { $0.name.caseInsensitiveEquals(name) })?.value
    }

    public func all(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

/// RFC 2047 encoded words: `=?charset?B?…?=` and `=?charset?Q?…?=`; whitespace between two
/// encoded words is dropped, as the RFC says.
enum EncodedWords {
    static func decode(_ value: String) -> String {
        guard value.contains("=?") else { return value }
        var result = ""
        var pendingSpace = ""
        var lastWasEncoded = false
        var rest = Substring(value)
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let (word, after) = encodedWord(at: rest) {
                if !lastWasEncoded { result += pendingSpace }
                result += word
                pendingSpace = ""
                lastWasEncoded = true
                rest = after
                continue
            }
            let character = rest.removeFirst()
            if character == " " || character == "\t" {
                pendingSpace.append(character)
                continue
            }
            result += pendingSpace
            pendingSpace = ""
            result.append(character)
            lastWasEncoded = false
        }
        return result + pendingSpace
    }

    /// One encoded word at the start of `text` and what follows it, or nil when it is not one.
    private static func encodedWord(at text: Substring) -> (String, Substring)? {
        let inner = text.dropFirst(2)
        let pieces = inner.split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, let end = pieces[2].firstRange(of: "?=") else { return nil }
        let charset = String(pieces[0].split(separator: "*").first ?? "")  // RFC 2231 language suffix
        let encoded = pieces[2][..<end.lowerBound]
        guard !encoded.contains(" ") else { return nil }
        let bytes: [UInt8]
        switch pieces[1].uppercased() {
        case "B": guard let decoded = TransferEncoding.base64(Array(encoded.utf8)[...]) else { return nil }; bytes = decoded
        case "Q": bytes = TransferEncoding.quotedPrintable(Array(encoded.utf8)[...], underscoreIsSpace: true)
        default: return nil
        }
        return (Charset.decode(bytes, charset: charset), pieces[2][end.upperBound...])
    }
}
