#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts requests that MHD has presented to the handler but not yet reported complete, so a
/// graceful shutdown can wait for them. A condition variable rather than polling: the waiter
/// wakes the moment the last request finishes.
final class InFlightRequests: @unchecked Sendable {
    // @unchecked: `count` is read and written only with `mutex` held. The pthread objects live
    // in their own allocations because they must never move once initialised.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let becameIdle = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count = 0

    init() {
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        // Darwin has no pthread_condattr_setclock; it waits for a relative time instead (below).
        pthread_cond_init(becameIdle, nil)
        #else
        // Deadlines on the monotonic clock, so a wall-clock jump cannot stretch a grace period.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(becameIdle, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(becameIdle)
        pthread_mutex_destroy(mutex)
        becameIdle.deallocate()
        mutex.deallocate()
    }

    func begin() {
        pthread_mutex_lock(mutex)
        count += 1
        pthread_mutex_unlock(mutex)
    }

    func end() {
        pthread_mutex_lock(mutex)
        count -= 1
        if count == 0 { pthread_cond_broadcast(becameIdle) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until no request is in flight or `seconds` have passed; true when idle.
    @discardableResult
    func waitUntilIdle(atMost seconds: Double) -> Bool {
        let deadline = Self.monotonicNow(plus: seconds)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count > 0 {
            if waitForIdle(until: deadline) == ETIMEDOUT { break }
        }
        return count == 0
    }

    /// One wait on `becameIdle` (with `mutex` held) that ends by `deadline` on the monotonic clock.
    private func waitForIdle(until deadline: timespec) -> Int32 {
        #if canImport(Darwin)
        let now = Self.monotonicNow(plus: 0)
        var remaining = timespec(tv_sec: deadline.tv_sec - now.tv_sec, tv_nsec: deadline.tv_nsec - now.tv_nsec)
        if remaining.tv_nsec < 0 {
            remaining.tv_nsec += 1_000_000_000
            remaining.tv_sec -= 1
        }
        guard remaining.tv_sec >= 0 else { return ETIMEDOUT }
        return pthread_cond_timedwait_relative_np(becameIdle, mutex, &remaining)
        #else
        var deadline = deadline
        return pthread_cond_timedwait(becameIdle, mutex, &deadline)
        #endif
    }

    private static func monotonicNow(plus seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        // Clamp: NaN and negatives mean "do not wait", and a year is as good as forever.
        let wait = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 24 * 3600)
        let whole = Int(wait)
        var nanoseconds = now.tv_nsec + Int((wait - Double(whole)) * 1e9)
        var secondsPart = now.tv_sec + whole
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            secondsPart += 1
        }
        return timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
    }
}
