import Foundation
import HTTPTestSupport
import JSON
import Testing

@Suite struct ConcurrencyTests {
    /// Parallel sign-ups on keep-alive connections: every one answered, none lost, no id twice.
    @Test func parallelSignUpsAreAllKept() throws {
        let emulator = try TestEmulator()
        let threads = 4
        let perThread = 50
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                let connection = try RawHTTPConnection(port: emulator.emulator.port)
                for index in 0..<perThread {
                    let body: JSONValue = ["email": .string("t\(thread)-\(index)@example.com"), "password": "secret123"]
                    let response = try connection.exchange(
                        "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                        headers: [("Content-Type", "application/json")], body: body.encoded())
                    let localId = try JSONValue(parsing: response.body)["localId"]?.stringValue
                    results.record(status: response.status, localId: localId)
                }
            } catch {
                results.record(status: -1, localId: "\(error)")
            }
        }
        #expect(results.statuses == Array(repeating: 200, count: threads * perThread))
        #expect(Set(results.localIds).count == threads * perThread)
        let all = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchGet?maxResults=-1",
            headers: [("Authorization", "Bearer owner")])
        #expect(all["users"]?.arrayValue?.count == threads * perThread)
    }

    /// Two clients racing for one email: exactly one account gets it.
    @Test func racingForOneEmailCreatesOneAccount() throws {
        let emulator = try TestEmulator()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let reply = try? emulator.signUp("race@example.com")
            results.record(status: reply?.status ?? -1, localId: reply?.errorMessage)
        }
        #expect(results.statuses.filter { $0 == 200 }.count == 1)
        #expect(results.localIds.filter { $0 == "EMAIL_EXISTS" }.count == 7)
    }
}

/// Collected from several threads. `@unchecked Sendable`: every access holds `lock`.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(status: Int, localId: String?)] = []

    func record(status: Int, localId: String?) {
        lock.lock()
        entries.append((status, localId))
        lock.unlock()
    }

    var statuses: [Int] { lock.lock(); defer { lock.unlock() }; return entries.map(\.status) }
    var localIds: [String] { lock.lock(); defer { lock.unlock() }; return entries.compactMap(\.localId) }
}
