#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable. Not `Synchronization.Mutex`: the reader pool
/// has to block until a connection comes back, and `Mutex` has no condition to wait on.
final class Lock: @unchecked Sendable {  // the pthread objects are the synchronisation
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Releases the lock until `signal()`, then takes it again. Call only inside `withLock`.
    func wait() { pthread_cond_wait(condition, mutex) }

    func signal() { pthread_cond_signal(condition) }

    /// Wakes every thread in `wait()` (for waiters that each check a different condition).
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// An identity for the calling thread, stable while it runs.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
