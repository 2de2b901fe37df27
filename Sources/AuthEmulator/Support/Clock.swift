import Foundation

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
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time = [millisecondOfDay / 3_600_000, millisecondOfDay / 60_000 % 60, millisecondOfDay / 1000 % 60]
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + time.map { padded($0, 2) }.joined(separator: ":") + ".\(padded(millisecondOfDay % 1000, 3))Z"
    }
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

/// The emulator's clock: real time plus an offset that only moves forward. A test advances it over
/// HTTP to expire tokens and codes without waiting; the offset is stored, so a `--data` restart
/// keeps the time the test had reached.
public final class EmulatorClock: Sendable {
    private let offsetMilliseconds: Locked<Int64>
    private let source: any TimeSource

    public init(source: any TimeSource = SystemTime(), offsetMilliseconds: Int64 = 0) {
        self.source = source
        self.offsetMilliseconds = Locked(offsetMilliseconds)
    }

    public func now() -> Instant {
        let offset = offsetMilliseconds.withLock { $0 }
        return Instant(millisecondsSinceEpoch: source.now().millisecondsSinceEpoch + offset)
    }

    public var offset: Int64 { offsetMilliseconds.withLock { $0 } }

    /// Moves the clock forward; time never runs backwards, so a negative amount is refused.
    func advance(milliseconds: Int64) throws(AuthError) {
        guard milliseconds >= 0 else {
            throw AuthError.invalid("INVALID_ARGUMENT : The clock only moves forward; seconds must not be negative.")
        }
        offsetMilliseconds.withLock { $0 += milliseconds }
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
