@testable import AuthEmulator
import FuzzSupport
import HTTPServer

// Whole requests through the router on an in-memory emulator, as the HTTP server would hand them
// over. The input is a request head (`METHOD /path?query`, then `Name: value` lines, then an empty
// line) and a body. Any answer is fine except an internal error (500: an operation threw
// something it did not mean to) or a trap.
/// A fresh emulator every so often, so the store (and libFuzzer's memory) stays small.
final class Emulators {
    private var router: Router?
    private var served = 0

    func next() -> Router {
        if served % 2000 == 0 || router == nil {
            var configuration = AuthEmulator.Configuration()
            configuration.projectId = "demo-fuzz"
            // Fresh provider keys, as in the emulator: one shared key would give two providers
            // the same key id, which the store refuses (a 500 that is the harness's, not the emulator's).
            let emulator = try! AuthEmulator(
                configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }))
            router = Router(environment: emulator.environment, routes: RouteTable.routes)
        }
        served += 1
        return router!
    }
}

func request(from bytes: [UInt8]) -> HTTPRequest {
    let separator: [UInt8] = [10, 10]
    let split = (0..<max(0, bytes.count - 1)).first { bytes[$0..<$0 + 2].elementsEqual(separator) }
    let head = String(decoding: split.map { bytes[..<$0] } ?? bytes[...], as: UTF8.self)
    let body = split.map { Array(bytes[($0 + 2)...]) } ?? []
    let lines = head.split(separator: "\n", omittingEmptySubsequences: false)
    let requestLine = lines.first.map(String.init) ?? ""
    let space = requestLine.firstIndex(of: " ") ?? requestLine.endIndex
    let method = String(requestLine[..<space])
    let target = requestLine[space...].drop { $0 == " " }
    let question = target.firstIndex(of: "?") ?? target.endIndex
    let path = target[..<question].isEmpty ? "/" : String(target[..<question])
    let query = question == target.endIndex ? [] : FormURLEncoding.decode(String(target[target.index(after: question)...]))
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
    return HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
}

let emulators = Emulators()
FuzzDriver.run { bytes in
    let request = request(from: bytes)
    guard case .now(let response) = emulators.next().reply(to: request) else { return }
    FuzzDriver.require(response.status != 500, "500 for \(request.method) \(request.path): \(String(decoding: response.body, as: UTF8.self))")
}
