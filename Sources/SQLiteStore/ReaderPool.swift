/// Read-only connections to one database (a WAL file, or a memdb shared in the process), opened on
/// demand up to `capacity`; each is used by one thread at a time, between check-out and check-in.
final class ReaderPool: @unchecked Sendable {  // `idle` and `openCount` are only touched under `lock`
    private let lock = Lock()
    private var idle: [SQLiteConnection] = []
    private var openCount = 0
    private let capacity: Int
    private let open: @Sendable () throws -> SQLiteConnection

    init(capacity: Int, open: @escaping @Sendable () throws -> SQLiteConnection) {
        self.capacity = capacity
        self.open = open
    }

    /// Lends a connection to `body`, waiting while all `capacity` connections are busy.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections (all of them, once no read is running).
    func closeAll() {
        lock.withLock { idle.removeAll() }
    }

    private func checkOut() throws -> SQLiteConnection {
        let reused: SQLiteConnection? = lock.withLock {
            while idle.isEmpty && openCount >= capacity { lock.wait() }
            if let connection = idle.popLast() { return connection }
            openCount += 1  // reserve the slot, open outside the lock
            return nil
        }
        if let reused { return reused }
        do {
            return try open()
        } catch {
            lock.withLock {
                openCount -= 1
                lock.signal()
            }
            throw error
        }
    }

    private func checkIn(_ connection: SQLiteConnection) {
        lock.withLock {
            idle.append(connection)
            lock.signal()
        }
    }
}
