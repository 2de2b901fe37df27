import Threads

/// A value behind a lock, shareable as a reference. `@unchecked Sendable` is sound because every
/// access to `value` goes through `withLock`, which holds the lock for the whole closure.
///
/// A pthread mutex (ConditionLock's; no one waits on its condition here), not Synchronization's
/// Mutex: `value` lives beside the lock, and scripts/tsan.supp hides ThreadSanitizer reports in
/// Mutex bodies on the grounds that they touch only the Mutex's own value.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
