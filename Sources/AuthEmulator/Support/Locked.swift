import Synchronization

/// A value behind a lock, shareable as a reference. `@unchecked Sendable` is sound because every
/// access to `value` goes through `withLock`, which holds the mutex for the whole closure.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = Mutex(())
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body(&value) }
    }
}
