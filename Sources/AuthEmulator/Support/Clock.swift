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

/// Where operations read the time. Injected so that tests (and the emulator clock API) control it.
public protocol Clock: Sendable {
    func now() -> Instant
}

/// The wall clock plus an offset that only moves forward: the emulator's clock, which a test can
/// advance over HTTP to expire tokens and codes without waiting.
public final class EmulatorClock: Clock {
    private let offsetMilliseconds = Locked<Int64>(0)
    private let wallClock: @Sendable () -> Instant

    public init(wallClock: @escaping @Sendable () -> Instant = EmulatorClock.systemTime) {
        self.wallClock = wallClock
    }

    public func now() -> Instant {
        let offset = offsetMilliseconds.withLock { $0 }
        return Instant(millisecondsSinceEpoch: wallClock().millisecondsSinceEpoch + offset)
    }

    public func advance(seconds: Int64) {
        offsetMilliseconds.withLock { $0 += seconds * 1000 }
    }

    @Sendable public static func systemTime() -> Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

/// A fixed clock for tests.
public final class ManualClock: Clock {
    private let current: Locked<Instant>

    public init(_ start: Instant) { current = Locked(start) }

    public func now() -> Instant { current.withLock { $0 } }

    public func advance(seconds: Int64) {
        current.withLock { $0 = $0.adding(seconds: seconds) }
    }
}
