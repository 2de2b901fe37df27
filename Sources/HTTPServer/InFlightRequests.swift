import Threads

/// Counts requests that MHD has presented to the handler but not yet reported complete, so a
/// graceful shutdown can wait for them. A condition variable rather than polling: the waiter
/// wakes the moment the last request finishes.
final class InFlightRequests: @unchecked Sendable {
    // @unchecked: `count` is read and written only inside `lock.withLock`.
    private let lock = ConditionLock()
    private var count = 0

    func begin() {
        lock.withLock { count += 1 }
    }

    func end() {
        lock.withLock {
            count -= 1
            if count == 0 { lock.broadcast() }
        }
    }

    /// Blocks until no request is in flight or `seconds` have passed; true when idle.
    @discardableResult
    func waitUntilIdle(atMost seconds: Double) -> Bool {
        let deadline = MonotonicDeadline(secondsFromNow: seconds)
        return lock.withLock {
            while count > 0 {
                if !lock.wait(until: deadline) { break }
            }
            return count == 0
        }
    }
}
