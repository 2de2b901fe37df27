/// Remembers which threads are inside a `read` or `write` of one database, so that a nested call
/// fails loudly instead of deadlocking on the writer lock or the reader pool.
final class ReentrancyGuard: @unchecked Sendable {  // `threads` is only touched under `lock`
    private let lock = Lock()
    private var threads: Set<UInt> = []

    func run<T>(_ body: () throws -> T) rethrows -> T {
        let thread = currentThreadID()
        let isNested = lock.withLock { !threads.insert(thread).inserted }
        precondition(
            !isNested,
            "SQLiteDatabase.read/write called inside another read/write of the same database; "
                + "use the SQLiteConnection the outer closure was given")
        defer { _ = lock.withLock { threads.remove(thread) } }
        return try body()
    }
}
