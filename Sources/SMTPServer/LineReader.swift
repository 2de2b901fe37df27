/// Splits received bytes into lines ended by LF (a CR before it is dropped), holding at most one
/// line's bytes: a line longer than the limit is reported once and skipped to its end.
struct LineReader {
    enum Line: Equatable {
        case line([UInt8])
        case tooLong
    }

    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next LF resumes: bytes before it hold none, so a line arriving in
    /// many small reads is scanned once, not once per read.
    private var scanned = 0
    private var skippingLongLine = false

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func nextLine(limit: Int) -> Line? {
        let end = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n"))
        scanned = end ?? buffer.count
        if skippingLongLine {
            guard let end else {
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
                return nil
            }
            start = end + 1
            skippingLongLine = false
            return nextLine(limit: limit)
        }
        guard let end else {
            guard buffer.count - start > limit + 1 else { compact(); return nil }
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
            skippingLongLine = true
            return .tooLong
        }
        var lineEnd = end
        if lineEnd > start && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let length = lineEnd - start
        defer { start = end + 1 }
        guard length <= limit else { return .tooLong }
        return .line(Array(buffer[start..<lineEnd]))
    }

    /// Moves an unfinished line to the front, so the buffer never holds more than one line.
    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeSubrange(0..<start)
        scanned -= start
        start = 0
    }
}
