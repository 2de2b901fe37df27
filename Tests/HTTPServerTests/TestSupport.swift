#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import Threads
import Synchronization

/// A handler that records every request and answers with whatever the test supplies.
final class RecordingHandler: HTTPHandler {
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse
    private let recorded = Mutex<[HTTPRequest]>([])

    init(answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200) }) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return answer(request)
    }

    func respondToOversizedBody(limit: Int) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        return HTTPResponse(status: 400, headers: headers, body: Array("{\"limit\":\(limit)}".utf8))
    }
}

/// A started server on an ephemeral loopback port.
func startedServer(
    _ handler: any HTTPHandler, maximumBodyBytes: Int = 1 << 20, threadCount: Int = 2, host: String = "127.0.0.1"
) throws -> HTTPServer {
    let configuration = HTTPServer.Configuration(
        host: host, port: 0, threadCount: threadCount, maximumBodyBytes: maximumBodyBytes,
        connectionTimeoutSeconds: 5)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    return server
}

/// Runs `body` on `count` real threads at once (not the cooperative pool, which blocking
/// sockets would starve) and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Work {
        let body: @Sendable (Int) -> Void
        let index: Int
        init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) {
            self.body = body
            self.index = index
        }
    }
    let threads = (0..<count).map { index -> pthread_t in
        var thread = pthread_t()
        let work = Unmanaged.passRetained(Work(body, index)).toOpaque()
        let created = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            work.body(work.index)
            return nil
        }, work)
        precondition(created == 0, "pthread_create failed")
        return thread
    }
    for thread in threads { pthread_join(thread, nil) }
}

func milliseconds(since start: timespec) -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec - start.tv_sec) * 1000 + Double(now.tv_nsec - start.tv_nsec) / 1e6
}

func monotonicNow() -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now
}

/// A one-shot flag a test thread can wait on (bounded) until another thread raises it.
final class Signal: Sendable {
    private let raised = Mutex(false)

    func raise() { raised.withLock { $0 = true } }
    var isRaised: Bool { raised.withLock { $0 } }

    /// Polls every millisecond for at most `seconds`; true once raised.
    func wait(atMost seconds: Double) -> Bool {
        let start = monotonicNow()
        while !isRaised {
            if milliseconds(since: start) > seconds * 1000 { return false }
            usleep(1000)
        }
        return true
    }
}

/// Shuts `server` down on a thread of its own and waits at most `seconds` for it; false when it
/// has not returned by then. The thread is detached and keeps the server, so a shutdown that
/// never returns (a wedged libmicrohttpd thread) fails the test instead of hanging the suite.
func shutsDown(_ server: HTTPServer, within seconds: Double) throws -> Bool {
    let done = Signal()
    try PosixThread {
        server.shutdown(gracePeriodSeconds: 1)
        done.raise()
    }.detach()
    return done.wait(atMost: seconds)
}
