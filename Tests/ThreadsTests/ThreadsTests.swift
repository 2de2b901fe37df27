import Synchronization
import Testing

@testable import Threads

@Suite struct ThreadsTests {
    @Test func aJoinedThreadHasRunItsBody() throws {
        let ran = Atomic(false)
        let thread = try PosixThread { ran.store(true, ordering: .releasing) }
        thread.join()
        let seen = ran.load(ordering: .acquiring)
        #expect(seen)
    }

    @Test func aWaiterWakesOnBroadcastAndSeesTheChange() throws {
        final class Flag: @unchecked Sendable {  // `set` is only touched under `lock`
            let lock = ConditionLock()
            var set = false
        }
        let flag = Flag()
        try PosixThread {
            flag.lock.withLock {
                flag.set = true
                flag.lock.broadcast()
            }
        }.detach()
        let deadline = MonotonicDeadline(secondsFromNow: 30)
        let seen = flag.lock.withLock {
            while !flag.set { if !flag.lock.wait(until: deadline) { break } }
            return flag.set
        }
        #expect(seen)
    }

    @Test func aWaitEndsAtItsDeadline() {
        let lock = ConditionLock()
        let woken = lock.withLock { lock.wait(until: MonotonicDeadline(secondsFromNow: 0.05)) }
        #expect(!woken)
        // Deadlines already past, or nonsense, do not wait at all.
        #expect(!lock.withLock { lock.wait(until: MonotonicDeadline(secondsFromNow: -1)) })
        #expect(!lock.withLock { lock.wait(until: MonotonicDeadline(secondsFromNow: .nan)) })
    }
}
