@testable import AuthEmulator
import FuzzSupport
import HTTPServer
import JOSE

// Whole requests through the router on an in-memory emulator, as the HTTP server would hand them
// over. The input is a request head (`METHOD /path?query`, then `Name: value` lines, then an empty
// line) and a body. Any answer is fine except an internal error (500: an operation threw
// something it did not mean to) or a trap.
/// A fresh emulator every 2000 requests, so the store (and libFuzzer's memory) stays small, or
/// sooner when its share of pre-made provider keys runs out.
final class Emulators {
    private var router: Router?
    private var served = 0
    private let keys = PreMadeKeys()

    func next() -> Router {
        if served % 2000 == 0 || router == nil || keys.nearlyUsedUp {
            var configuration = AuthEmulator.Configuration()
            configuration.projectId = "demo-fuzz"
            let emulator = try! AuthEmulator(
                configuration: configuration, logger: Logger(minimumLevel: .error, sink: { _ in }),
                makeProviderKey: keys.startEmulator())
            router = Router(environment: emulator.environment, routes: RouteTable.routes)
        }
        served += 1
        return router!
    }
}

/// Provider keys made once, each handed out at most once per emulator: fresh keys per provider, as
/// in the emulator (one shared key would give two providers the same key id, which the store
/// refuses: a 500 that is the harness's, not the emulator's), without generating an RSA key for
/// each new provider id or rotation. Generation had taken 40% of the run, at 217 inputs a second.
final class PreMadeKeys: @unchecked Sendable {  // libFuzzer calls the harness from one thread
    private static let perAlgorithm = 16
    /// Made before the first input, so no input's time limit counts the generation.
    private let pool: [JWSAlgorithm: [SigningKey]] = [
        .rs256: (0..<PreMadeKeys.perAlgorithm).map { _ in try! SigningKey.generateRSA() },
        .es256: (0..<PreMadeKeys.perAlgorithm).map { _ in try! SigningKey.generateP256() },
    ]
    private var handedOut: [JWSAlgorithm: Int] = [:]

    /// A request makes at most one key, so two spare per algorithm keep every request on the pool.
    var nearlyUsedUp: Bool { handedOut.values.contains { $0 >= Self.perAlgorithm - 2 } }

    func startEmulator() -> ProviderKeyring.KeyFactory {
        handedOut = [:]
        return { [unowned self] algorithm in
            let index = handedOut[algorithm, default: 0]
            handedOut[algorithm] = index + 1
            guard let keys = pool[algorithm], index < keys.count else { return try ProviderKeyring.freshKey(algorithm) }
            return keys[index]
        }
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
