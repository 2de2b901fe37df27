#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable, for state that threads wait on with a deadline (the
/// POSIX pair that Foundation's `NSCondition` wraps, without linking Foundation).
///
/// `@unchecked Sendable`: the pthread objects are only used through pthread calls, which are
/// thread-safe; they live in their own allocations because they must never move once initialised.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        // Darwin has no pthread_condattr_setclock; `wait(until:)` waits for a relative time instead.
        pthread_cond_init(condition, nil)
        #else
        // Deadlines on the monotonic clock, so a wall-clock jump cannot stretch a wait.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter. Call it with the lock held, after changing what they wait for.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// With the lock held (inside `withLock`): releases it until a broadcast or the deadline, then
    /// takes it again. False once the deadline has passed. Wakes can be spurious: re-check the state.
    public func wait(until deadline: MonotonicDeadline) -> Bool {
        #if canImport(Darwin)
        var remaining = deadline.remaining()
        guard remaining.tv_sec >= 0 else { return false }
        return pthread_cond_timedwait_relative_np(condition, mutex, &remaining) != ETIMEDOUT
        #else
        var time = deadline.time
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
        #endif
    }
}

/// A point in time on the monotonic clock, which wall-clock changes do not move.
public struct MonotonicDeadline: Sendable {
    fileprivate let time: timespec

    /// `seconds` from now; NaN and negatives mean now, and more than a year is as good as forever.
    public init(secondsFromNow seconds: Double) {
        let now = Self.now()
        let wait = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 24 * 3600)
        let whole = Int(wait)
        var nanoseconds = now.tv_nsec + Int((wait - Double(whole)) * 1e9)
        var secondsPart = now.tv_sec + whole
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            secondsPart += 1
        }
        time = timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
    }

    /// The time left (negative seconds once it has passed).
    fileprivate func remaining() -> timespec {
        let now = Self.now()
        var left = timespec(tv_sec: time.tv_sec - now.tv_sec, tv_nsec: time.tv_nsec - now.tv_nsec)
        if left.tv_nsec < 0 {
            left.tv_nsec += 1_000_000_000
            left.tv_sec -= 1
        }
        return left
    }

    private static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now
    }
}
