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

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-29T22:40:13.123Z`.
    public var rfc3339: String {
        let date = Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000)
        return Instant.formatter.withLock { $0.string(from: date) }
    }

    private static let formatter: Locked<ISO8601DateFormatter> = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return Locked(formatter)
    }()
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
