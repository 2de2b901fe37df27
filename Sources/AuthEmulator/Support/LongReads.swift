import JSON
import SQLiteStore
import Threads

/// Reads whose time grows with the users of a scope (an `accounts:query` count, or an offset,
/// walks an index of every user: tens of milliseconds at 1M) run here, one at a time, on a thread
/// of their own, while their connection is suspended: the HTTP server has two threads, and three
/// counts on them held every lookup and sign-in back until one ended. A thread is started when a
/// read arrives and none is running, and ends once no read waits, so an idle emulator keeps none.
final class LongReads: Sendable {
    typealias Read = @Sendable () -> Void

    private struct State {
        var waiting: [Read] = []
        var running = false
    }

    private let state = Locked(State())

    /// Reads waiting for their turn (not the one running).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `read` after the reads queued before it, on the queue's thread (on the caller's, should
    /// no thread start).
    func run(_ read: @escaping Read) {
        let startsThread = state.withLock { state in
            state.waiting.append(read)
            defer { state.running = true }
            return !state.running
        }
        guard startsThread else { return }
        do {
            try PosixThread { self.drain() }.detach()
        } catch {
            drain()
        }
    }

    private func drain() {
        while let read = state.withLock({ state -> Read? in
            guard !state.waiting.isEmpty else {
                state.running = false
                return nil
            }
            return state.waiting.removeFirst()
        }) {
            read()
        }
    }
}

extension OperationRequest {
    /// `body`'s answer from `LongReads`, without holding a server thread meanwhile; errors answer
    /// as the router renders them (an `AuthError` as itself, anything else logged, as `INTERNAL_ERROR`).
    /// `name` names the operation in that log line.
    func longRead(_ name: String, _ body: @escaping @Sendable (OperationRequest) throws -> JSONObject) -> OperationResult {
        .deferred { answer in
            environment.longReads.run {
                do {
                    answer.complete(.json(try body(self)))
                } catch let error as AuthError {
                    answer.complete(ResponseRenderer.failure(error))
                } catch {
                    environment.logger.log(.error, "\(name) failed: \(error)")
                    let storage = (error as? SQLiteError).flatMap(StorageFailure.error(for:))
                    answer.complete(ResponseRenderer.failure(storage ?? AuthError.internal("INTERNAL_ERROR")))
                }
            }
        }
    }
}
