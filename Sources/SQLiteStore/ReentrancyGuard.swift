#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers which threads are inside a `read` or `write` of one database, so that a nested call
/// fails loudly instead of deadlocking on the writer lock or the reader pool. A thread-specific
/// flag of its own, not a set under a lock: every transaction passes here twice.
final class ReentrancyGuard: Sendable {
    /// Set (to any non-nil pointer) while the thread is inside; a key per guard, deleted with it.
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): too many open databases")
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    func run<T>(_ body: () throws -> T) rethrows -> T {
        precondition(
            pthread_getspecific(key) == nil,
            "SQLiteDatabase.read/write called inside another read/write of the same database; "
                + "use the SQLiteConnection the outer closure was given")
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return try body()
    }
}
