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

/// A pthread read/write lock that prefers writers, so a steady stream of reads cannot starve one.
final class ReadWriteLock: @unchecked Sendable {  // the pthread object is the synchronisation
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func reading<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Whether a writer waits for the readers to finish, for tests that must order a write after
    /// a read has begun. Only for a caller inside `reading` (so no writer holds the lock): glibc's
    /// writer-preferring lock then refuses a new reader exactly while a writer waits. (Darwin's
    /// lock prefers no one, and this answers false there.)
    func hasWaitingWriter() -> Bool {
        guard pthread_rwlock_tryrdlock(lock) == 0 else { return true }
        pthread_rwlock_unlock(lock)
        return false
    }
}
