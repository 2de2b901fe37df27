/// One write transaction of a file database that several `write` calls share: those that arrive
/// while the log's previous sync runs (see `SQLiteDatabase.write`). Each call's changes are a
/// savepoint inside it; the transaction commits once, so a page that all of them change (the
/// table's last leaf, an index's) is written to the log once per batch instead of once per call.
///
/// `members` is read and written only under the database's writer lock; `outcome` only under
/// `lock`, which the members that wait for the commit sleep on.
final class WriteBatch: @unchecked Sendable {
    /// Calls whose changes the open transaction holds.
    var members = 1
    private let lock = Lock()
    /// Success once the commit is durable, or why the transaction did not commit or sync.
    private var outcome: Result<Void, any Error>?

    /// Once, when the commit is durable (or has failed): wakes every member.
    func settle(_ outcome: Result<Void, any Error>) {
        lock.withLock {
            self.outcome = outcome
            lock.broadcast()
        }
    }

    /// Blocks until the commit is durable; throws when it failed.
    func waitUntilDurable() throws {
        try lock.withLock {
            while outcome == nil { lock.wait() }
            return try outcome!.get()
        }
    }
}
