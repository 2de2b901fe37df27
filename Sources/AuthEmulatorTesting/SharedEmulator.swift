import Foundation

extension Emulator {
    /// One emulator for the whole test process, started on first use and stopped when the process
    /// exits (as every binary the kit starts is). With `FIREBASE_AUTH_EMULATOR_HOST` set (say, by
    /// `auth-emulator exec`) it attaches to that one instead. Once started, its `environment` is
    /// exported to this process. The first call's options are the ones used; a start that failed
    /// fails every later call the same way.
    public static func shared(_ options: Options = Options()) async throws -> Emulator {
        try await SharedEmulator.instance.emulator(options)
    }

    /// Runs `body` with a binary of its own (`start(options)`), stopped when `body` returns or throws.
    public static func withStarted<Result>(
        _ options: Options = Options(), _ body: (Emulator) async throws -> Result
    ) async throws -> Result {
        let emulator = try await start(options)
        return try await finishing({ try await body(emulator) }, with: { await emulator.stop() })
    }

    /// Runs `body` with the shared emulator reset to a fresh start (`reset()`, and forwarding back
    /// on for every relay address, a switch the fake Apple provider keeps across resets), one body
    /// at a time in this process, so tests that run in parallel (Swift Testing's default) still each
    /// see an empty emulator. A reset that fails fails this call, before `body` runs.
    public static func withFreshState<Result>(
        _ options: Options = Options(), _ body: (Emulator) async throws -> Result
    ) async throws -> Result {
        let emulator = try await shared(options)
        await SharedEmulator.turns.acquire()
        return try await finishing({
            try await emulator.reset()
            for address in try await emulator.providers.relayAddresses() where !address.forwarding {
                try await emulator.providers.setRelayForwarding(address.address, true)
            }
            return try await body(emulator)
        }, with: { await SharedEmulator.turns.release() })
    }
}

/// Starts the process-wide emulator once, however many tests ask at the same moment.
private actor SharedEmulator {
    static let instance = SharedEmulator()
    static let turns = Turns()

    private var starting: Task<Emulator, any Error>?

    func emulator(_ options: Emulator.Options) async throws -> Emulator {
        if let starting { return try await starting.value }
        let task = Task {
            let environment = ProcessInfo.processInfo.environment
            let emulator: Emulator
            if let host = environment["FIREBASE_AUTH_EMULATOR_HOST"], !host.isEmpty {
                emulator = try await Emulator.attach(host: host)
            } else {
                emulator = try await Emulator.start(options)
                emulator.exportEnvironment()
            }
            return emulator
        }
        starting = task
        return try await task.value
    }
}

/// Runs `body`, then `cleanup` whether `body` threw or not (an async `defer`). A cleanup that
/// throws after a `body` that did not fails the call; after one that did, `body`'s error wins.
func finishing<Result>(_ body: () async throws -> Result, with cleanup: () async throws -> Void) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        try? await cleanup()
        throw error
    }
    try await cleanup()
    return result
}

/// A value behind a lock, for the one global the `atexit` handler reads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A first-come, first-served turn: one holder at a time, the others suspended (no thread held).
actor Turns {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held { held = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }
}
