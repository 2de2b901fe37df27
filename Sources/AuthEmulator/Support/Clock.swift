#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// A point in time as whole milliseconds since the Unix epoch: the unit Firebase stores
/// (`createdAt`, `lastLoginAt`), with seconds derived for tokens and `validSince`.
public struct Instant: Sendable, Hashable, Comparable {
    public let millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public var secondsSinceEpoch: Int64 { millisecondsSinceEpoch / 1000 }

    public func adding(seconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch + seconds * 1000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff]Z`, the form `rfc3339` writes (UTC only).
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
            let second = number(17..<19), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var milliseconds: Int64 = 0
        if bytes[19] == UInt8(ascii: ".") {
            // Only milliseconds count; the digits past them are checked but not added up, so a
            // long fraction cannot overflow.
            let digits = bytes.count - 21
            guard bytes[20..<(bytes.count - 1)].allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let fraction = number(20..<(20 + min(digits, 3)))
            else { return nil }
            milliseconds = fraction * Int64(pow10(3 - min(digits, 3)))
        }
        // Days from the civil date (Howard Hinnant's algorithm), the inverse of `rfc3339`.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        self.init(millisecondsSinceEpoch: ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds)
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-29T22:40:13.123Z`. Computed by hand (days
    /// to civil date, Howard Hinnant's algorithm): a date formatter is slow and not thread-safe.
    public var rfc3339: String {
        let milliseconds = millisecondsSinceEpoch
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let millisecondOfDay = milliseconds - days * 86_400_000
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Written in place into the string's own storage: this runs for timestamps of every user
        // a response carries (`lastRefreshAt`, `enrolledAt`), and digits appended to an array,
        // then copied into a string, cost ~2.4k instructions a timestamp (now ~0.9k, callgrind).
        /// `-MM-DDTHH:MM:SS.mmmZ`, the 20 bytes after the year.
        func writeRest(_ output: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
            var position = start
            func put(_ separator: Unicode.Scalar, twoDigits value: Int64) {
                output[position] = UInt8(ascii: separator)
                output[position + 1] = UInt8(ascii: "0") + UInt8(value / 10)
                output[position + 2] = UInt8(ascii: "0") + UInt8(value % 10)
                position += 3
            }
            put("-", twoDigits: month)
            put("-", twoDigits: day)
            put("T", twoDigits: millisecondOfDay / 3_600_000)
            put(":", twoDigits: millisecondOfDay / 60_000 % 60)
            put(":", twoDigits: millisecondOfDay / 1000 % 60)
            put(".", twoDigits: millisecondOfDay % 1000 / 10)
            output[position] = UInt8(ascii: "0") + UInt8(millisecondOfDay % 10)
            output[position + 1] = UInt8(ascii: "Z")
        }
        if (0...9999).contains(year) {
            return String(unsafeUninitializedCapacity: 24) { output in
                output[0] = UInt8(ascii: "0") + UInt8(year / 1000)
                output[1] = UInt8(ascii: "0") + UInt8(year / 100 % 10)
                output[2] = UInt8(ascii: "0") + UInt8(year / 10 % 10)
                output[3] = UInt8(ascii: "0") + UInt8(year % 10)
                writeRest(output, at: 4)
                return 24
            }
        }
        // A year outside 0...9999: its decimal text, zero-padded on the left to four characters.
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.utf8.count)) + digits
            + String(unsafeUninitializedCapacity: 20) { output in
                writeRest(output, at: 0)
                return 20
            }
    }
}

private func pow10(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { value, _ in value * 10 }
}

/// Where the emulator reads real time. Injected so that tests control it. (Not named `Clock`,
/// which would shadow the standard library's protocol of that name.)
public protocol TimeSource: Sendable {
    func now() -> Instant
}

/// The system's wall clock.
public struct SystemTime: TimeSource {
    public init() {}

    public func now() -> Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

/// The emulator's clock: real time plus an offset. A test advances it over HTTP to expire tokens and
/// codes without waiting, sets it to a moment in the future, or resets it to real time; it is never
/// earlier than real time. With a store to keep it in, the offset is saved before it changes, so a
/// `--data` restart keeps the time the test had reached.
public final class EmulatorClock: Sendable {
    /// Saves a new offset (milliseconds ahead of real time) before the clock takes it.
    public typealias OffsetStore = @Sendable (Int64) throws -> Void

    private let offsetMilliseconds: Locked<Int64>
    /// Serialises changes (read, save, apply) without holding `offsetMilliseconds`, which `now()`
    /// takes on every request: a slow save never stalls readers. Never taken inside a store write.
    private let changes = Locked(())
    private let source: any TimeSource
    private let saveOffset: OffsetStore?

    public init(source: any TimeSource = SystemTime(), offsetMilliseconds: Int64 = 0, saveOffset: OffsetStore? = nil) {
        self.source = source
        self.offsetMilliseconds = Locked(max(0, offsetMilliseconds))
        self.saveOffset = saveOffset
    }

    public func now() -> Instant {
        let offset = offsetMilliseconds.withLock { $0 }
        return Instant(millisecondsSinceEpoch: source.now().millisecondsSinceEpoch + offset)
    }

    /// Real time, without the offset.
    public func realNow() -> Instant { source.now() }

    public var offset: Int64 { offsetMilliseconds.withLock { $0 } }

    /// Moves the clock forward; a negative amount is refused (`reset` is the way back).
    func advance(milliseconds: Int64) throws {
        guard milliseconds >= 0 else {
            throw AuthError.invalid("INVALID_ARGUMENT : The clock only moves forward; seconds must not be negative.")
        }
        try change { $0 + milliseconds }
    }

    /// Back to real time (offset zero). Tokens and codes issued while the clock was ahead keep the
    /// times they were given (see docs/clock.md).
    public func reset() throws {
        try change { _ in 0 }
    }

    /// Sets the clock to `time`, which must not be earlier than real time: the clock never runs
    /// behind the wall clock, so every expiry it decides is at least as late as production's.
    public func set(to time: Instant) throws {
        let real = source.now()
        guard time >= real else {
            throw AuthError.invalid(
                "INVALID_ARGUMENT : time \(time.rfc3339) is earlier than real time (\(real.rfc3339)); the emulator clock never runs behind it. Use clock:reset to return to real time.")
        }
        try change { _ in time.millisecondsSinceEpoch - real.millisecondsSinceEpoch }
    }

    private func change(_ newOffset: (Int64) -> Int64) throws {
        try changes.withLock { _ in
            let next = newOffset(offset)
            try saveOffset?(next)
            offsetMilliseconds.withLock { $0 = next }
        }
    }
}

/// A time source that stands still until a test moves it.
public final class ManualClock: TimeSource {
    private let current: Locked<Instant>

    public init(_ start: Instant) { current = Locked(start) }

    public func now() -> Instant { current.withLock { $0 } }

    public func advance(seconds: Int64) {
        current.withLock { $0 = $0.adding(seconds: seconds) }
    }
}
