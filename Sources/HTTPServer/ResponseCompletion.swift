internal import CMicroHTTPD
import Synchronization

/// The one-shot answer to a deferred request (`HTTPReply.later`). The first `complete` wins and
/// resumes the suspended connection; later calls are ignored, so a timer and an event may race to
/// answer without harm.
public final class ResponseCompletion: @unchecked Sendable {
    // @unchecked Sendable: `connection` is an MHD handle that MHD lets any thread resume; it is
    // used once, by the `complete` call that wins the `state` mutex, and never after the request
    // is done (the dispatcher keeps the request alive until MHD reports it complete).
    private enum State {
        case waiting
        case answered(HTTPResponse)
        case delivered
    }

    private let connection: OpaquePointer
    private let state = Mutex(State.waiting)
    private let onAnswer: @Sendable (ResponseCompletion) -> Void

    init(connection: OpaquePointer, onAnswer: @escaping @Sendable (ResponseCompletion) -> Void) {
        self.connection = connection
        self.onAnswer = onAnswer
    }

    /// Answers the request; true when this call was the one that did.
    @discardableResult
    public func complete(_ response: HTTPResponse) -> Bool {
        let won = state.withLock { state in
            guard case .waiting = state else { return false }
            state = .answered(response)
            return true
        }
        guard won else { return false }
        onAnswer(self)
        MHD_resume_connection(connection)
        return true
    }

    public var isCompleted: Bool {
        state.withLock { if case .waiting = $0 { false } else { true } }
    }

    /// The response, handed over once, when MHD calls back for the resumed connection.
    func takeResponse() -> HTTPResponse? {
        state.withLock { state in
            guard case .answered(let response) = state else { return nil }
            state = .delivered
            return response
        }
    }
}

/// The deferred requests still waiting, so a shutdown can answer them before stopping MHD (which
/// must not stop with suspended connections).
final class SuspendedRequests: Sendable {
    private let waiting = Mutex<[ObjectIdentifier: ResponseCompletion]>([:])

    func add(_ completion: ResponseCompletion) {
        waiting.withLock { $0[ObjectIdentifier(completion)] = completion }
    }

    func remove(_ completion: ResponseCompletion) {
        _ = waiting.withLock { $0.removeValue(forKey: ObjectIdentifier(completion)) }
    }

    /// Answers every waiting request with `response`.
    func completeAll(with response: HTTPResponse) {
        let all = waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for completion in all { completion.complete(response) }
    }

}
