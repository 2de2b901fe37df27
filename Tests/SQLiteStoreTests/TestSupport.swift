import Foundation
import SQLiteStore
import Threads
import Synchronization

/// A fresh directory under the system temp dir, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// Where a test's database lives; tests that must hold for both run once per case.
enum Storage: CaseIterable, Sendable {
    case memory, file
}

/// Opens a database of `storage` kind (files go in a temp dir that lives as long as `body`).
func withDatabase<T>(
    _ storage: Storage, migrations: [Migration] = [], _ body: (SQLiteDatabase) throws -> T
) throws -> T {
    switch storage {
    case .memory: return try body(SQLiteDatabase(location: .inMemory, migrations: migrations))
    case .file:
        return try withTemporaryDirectory { directory in
            try body(SQLiteDatabase(location: .file("\(directory)/test.sqlite"), migrations: migrations))
        }
    }
}

/// Runs `body(index)` on `count` new threads at once and waits for all; rethrows the first error.
/// Joined POSIX threads, not Foundation's: a `Thread` keeps its closure, and so what the body
/// captured (a database and its file lock), until some time after it has ended, so a test that
/// opens the same file again right after could find it still locked by "itself".
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let firstError = Mutex<(any Error)?>(nil)
    let threads = try (0..<count).map { index in
        try PosixThread {
            do { try body(index) } catch { firstError.withLock { $0 = $0 ?? error } }
        }
    }
    for thread in threads { thread.join() }
    if let error = firstError.withLock({ $0 }) { throw error }
}

struct ExpectedFailure: Error, Equatable {}

let counterSchema = Migration(
    version: 1, name: "counter",
    sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0);")

/// State that test threads share, with a condition to wait on until it reads as wanted: a barrier
/// that orders threads by what they have done, never by how long they took.
final class Monitor<State>: @unchecked Sendable {  // `state` is only touched under `condition`
    private let condition = NSCondition()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Changes (or reads) the state and wakes every waiter to look again.
    @discardableResult
    func update<T>(_ body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready(state)`; false if that has not happened after `seconds`, a bound only a
    /// bug reaches (a loaded machine is slow, not minutes slow).
    func wait(atMost seconds: Double = 60, until ready: (State) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !ready(state) {
            if !condition.wait(until: deadline) { return ready(state) }
        }
        return true
    }
}

/// Polls `condition` (state another thread changes without a monitor) until it holds; false after
/// `seconds`, a bound only a bug reaches.
func eventually(atMost seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}
