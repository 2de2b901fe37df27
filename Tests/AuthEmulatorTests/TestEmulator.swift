import AuthEmulator
import Foundation
import HTTPTestSupport
import JOSE
import JSON

/// A real emulator on a free port with an in-memory store (or a file), a clock the test moves,
/// and a client that speaks JSON over a real socket.
final class TestEmulator: Sendable {
    static let project = "demo-test"
    static let start = Instant(millisecondsSinceEpoch: 1_700_000_000_000)

    let emulator: AuthEmulator
    let clock: ManualClock
    let logLines = LogCapture()

    init(
        dataFile: String? = nil, clock: ManualClock = ManualClock(TestEmulator.start),
        idpTokenMode: IdPTokenMode = .lenient, idTokenMode: IDTokenMode = .unsigned, importDirectory: String? = nil,
        fakeProviderLimits: FakeProviderLimits = FakeProviderLimits()
    ) throws {
        var configuration = AuthEmulator.Configuration()
        configuration.port = 0
        configuration.projectId = Self.project
        configuration.dataFile = dataFile
        configuration.idpTokenMode = idpTokenMode
        configuration.idTokenMode = idTokenMode
        configuration.importDirectory = importDirectory
        configuration.fakeProviderLimits = fakeProviderLimits
        self.clock = clock
        let keys = TestProviderKeys()
        emulator = try AuthEmulator(
            configuration: configuration, timeSource: clock, logger: Logger(minimumLevel: .info, sink: logLines.append),
            makeProviderKey: { try keys.next($0) })
        try emulator.start()
    }

    deinit { emulator.stop() }

    struct Reply {
        let status: Int
        let json: JSONValue
        let headers: [(name: String, value: String)]

        /// `error.message` of an error reply.
        var errorMessage: String? { json["error"]?["message"]?.stringValue }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        subscript(key: String) -> JSONValue? { json[key] }
    }

    func send(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [(String, String)] = []
    ) throws -> Reply {
        let connection = try RawHTTPConnection(port: emulator.port)
        let response = try connection.exchange(method, path, headers: headers, body: body)
        let json = response.body.isEmpty ? JSONValue.null : try JSONValue(parsing: response.body)
        return Reply(status: response.status, json: json, headers: response.headers)
    }

    func send(_ method: String, _ path: String, json: JSONValue, headers: [(String, String)] = []) throws -> Reply {
        try send(method, path, body: json.encoded(), headers: [("Content-Type", "application/json")] + headers)
    }

    /// A client call: `POST /identitytoolkit.googleapis.com/v1/accounts:<operation>?key=…`.
    func client(_ operation: String, _ body: JSONValue) throws -> Reply {
        try send("POST", "/identitytoolkit.googleapis.com/v1/accounts:\(operation)?key=test-api-key", json: body)
    }

    /// The Apple SDK's form of the same call: the legacy v3 path.
    func legacy(_ name: String, _ body: JSONValue) throws -> Reply {
        try send("POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)?key=test-api-key", json: body)
    }

    /// An admin call with `Authorization: Bearer owner` on the project path.
    func admin(_ operation: String, _ body: JSONValue, tenant: String? = nil) throws -> Reply {
        let scope = tenant.map { "/tenants/\($0)" } ?? ""
        return try send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)\(scope)/\(operation)", json: body,
            headers: [("Authorization", "Bearer owner")])
    }

    func refresh(_ refreshToken: String) throws -> Reply {
        try send(
            "POST", "/securetoken.googleapis.com/v1/token?key=test-api-key",
            json: ["grantType": "refresh_token", "refreshToken": .string(refreshToken)])
    }

    /// Signs up with email and password and returns the reply (tokens included).
    @discardableResult
    func signUp(_ email: String, _ password: String = "secret123") throws -> Reply {
        try client("signUp", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    }
}

/// Hands each emulator the RSA keys of one pool made once per test process (an RSA key takes
/// about 0.3 s to make), in order, so a rotation still gets a new key.
final class TestProviderKeys: Sendable {
    private static let pool: [SigningKey] = (0..<4).map { _ in try! SigningKey.generateRSA() }
    private let handedOut = Locked(0)

    func next(_ algorithm: JWSAlgorithm) throws -> SigningKey {
        guard algorithm == .rs256 else { return try SigningKey.generateP256() }
        let index = handedOut.withLock { count in
            defer { count += 1 }
            return count
        }
        return index < Self.pool.count ? Self.pool[index] : try SigningKey.generateRSA()
    }
}

/// Collects log lines from the emulator's HTTP threads.
final class LogCapture: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

enum TokenInspection {
    /// The header and payload of a compact JWT.
    static func decode(_ token: String?) throws -> (header: JSONObject, payload: JSONObject) {
        let jwt = try CompactJWT(parsing: token ?? "")
        return (jwt.header, jwt.payload)
    }
}
