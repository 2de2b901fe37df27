import HTTPTestSupport
import HTTPServer
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test func requestsFromManyThreadsAreAllAnswered() throws {
        let handler = RecordingHandler { request in
            HTTPResponse(status: 200, body: request.body + Array(request.path.utf8))
        }
        let server = try startedServer(handler, threadCount: 4)
        defer { server.shutdown() }
        let port = server.port
        let answers = Mutex<[String]>([])
        let failures = Mutex<[String]>([])

        onThreads(8) { thread in
            do {
                // Half the threads reuse one connection, half open one per request.
                let shared = try RawHTTPConnection(port: port)
                for index in 0..<10 {
                    let connection = thread.isMultiple(of: 2) ? shared : try RawHTTPConnection(port: port)
                    let response = try connection.exchange("POST", "/t\(thread)/r\(index)", body: Array("body:".utf8))
                    answers.withLock { $0.append(response.text) }
                }
            } catch {
                failures.withLock { $0.append("thread \(thread): \(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let expected = Set((0..<8).flatMap { thread in (0..<10).map { "body:/t\(thread)/r\($0)" } })
        #expect(Set(answers.withLock { $0 }) == expected)
        #expect(handler.requests.count == 80)
    }
}
