import Foundation

/// A running `auth-emulator` child process: started with `--port 0` unless a port is asked for
/// (so a port in use never stops it), ready once its banner names the address, stopped with
/// SIGTERM (SIGKILL if it does not exit in time). Its output is drained all along, so a chatty
/// emulator never blocks on a full pipe, and the tail of stderr is kept for error messages.
final class EmulatorProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is configured before `run()` and only read afterwards
    // (Process is thread-safe for terminate/isRunning); the mutable output state lives behind `lock`.
    private let process = Process()
    private let lock = NSLock()
    private var stderrTail = Data()
    private var stdoutLines: [String] = []
    private var partialStdout = Data()
    private var exited = false
    private var ready = false
    /// Output streams not yet read to their end.
    private var openStreams = 2
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var readyWaiters: [CheckedContinuation<Void, Never>] = []

    let binary: String
    let arguments: [String]

    private var bannerHost: String?
    private var bannerSMTP: String?

    /// What the banner said: `127.0.0.1:PORT`, and the SMTP listener's `127.0.0.1:PORT` when on.
    var host: String? { lock.withLock { bannerHost } }
    var smtpAddress: String? { lock.withLock { bannerSMTP } }

    init(binary: String, arguments: [String]) {
        self.binary = binary
        self.arguments = arguments
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Starts the process and waits for its banner, up to `timeout` seconds.
    func start(timeout: TimeInterval) async throws {
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] _ in self?.didExit() }
        do {
            try process.run()
        } catch {
            throw EmulatorKitError(.startFailed, "could not run \(binary): \(error.localizedDescription)")
        }
        Self.running.withLock { $0[ObjectIdentifier(self)] = self }
        drain(output.fileHandleForReading) { [weak self] data in self?.readStdout(data) }
        drain(errors.fileHandleForReading) { [weak self] data in self?.readStderr(data) }

        let deadline = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            self?.wakeReadyWaiters()
        }
        await withCheckedContinuation { continuation in
            lock.lock()
            if ready || exited { lock.unlock(); continuation.resume() } else {
                readyWaiters.append(continuation)
                lock.unlock()
            }
        }
        deadline.cancel()
        let (isReady, hasExited) = lock.withLock { (ready, exited) }
        if isReady { return }
        if !hasExited { await stop(grace: 2) }
        // The exit can be seen before the last of stderr is read: the reason is in that part.
        for _ in 0..<100 where lock.withLock({ openStreams > 0 }) {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        let status = hasExited ? "exited with status \(process.terminationStatus)" : "was not ready after \(Int(timeout)) s (stopped)"
        throw EmulatorKitError(.startFailed, """
            \(([binary] + arguments).joined(separator: " ")) \(status).
            stderr: \(stderr.isEmpty ? "(empty)" : stderr)
            stdout: \(lock.withLock { stdoutLines.joined(separator: "\n") })
            """)
    }

    /// What the process wrote to stderr (its last 64 KiB).
    var stderr: String { lock.withLock { String(decoding: stderrTail, as: UTF8.self) } }

    var isRunning: Bool { !lock.withLock { exited } }

    /// SIGTERM, then SIGKILL after `grace` seconds; returns once the process has exited.
    func stop(grace: TimeInterval = 5) async {
        guard isRunning else { return }
        process.terminate()
        let killer = Task { [process] in
            try? await Task.sleep(nanoseconds: UInt64(grace * 1_000_000_000))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        await waitForExit()
        killer.cancel()
    }

    /// Every binary still running, stopped when the test process exits (it ends with `exit()`, so
    /// `atexit` runs) rather than left behind.
    private static let running: Locked<[ObjectIdentifier: EmulatorProcess]> = {
        atexit {
            EmulatorProcess.running.withLock { $0.values.map { $0 } }.forEach { $0.stopNow() }
        }
        return Locked([:])
    }()

    /// Stops it from a synchronous context (process exit), without waiting long.
    func stopNow() {
        guard isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    func waitForExit() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if exited { lock.unlock(); continuation.resume() } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    private func didExit() {
        Self.running.withLock { $0[ObjectIdentifier(self)] = nil }
        let resumed = lock.withLock {
            exited = true
            let all = waiters + readyWaiters
            waiters = []
            readyWaiters = []
            return all
        }
        resumed.forEach { $0.resume() }
    }

    private func wakeReadyWaiters() {
        let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            defer { readyWaiters = [] }
            return readyWaiters
        }
        resumed.forEach { $0.resume() }
    }

    private func readStdout(_ data: Data) {
        let becameReady = lock.withLock { () -> Bool in
            partialStdout.append(data)
            var becameReady = false
            while let newline = partialStdout.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: partialStdout[partialStdout.startIndex..<newline], as: UTF8.self)
                partialStdout.removeSubrange(partialStdout.startIndex...newline)
                if stdoutLines.count < 200 { stdoutLines.append(line) }
                if let address = Self.value(after: "export FIREBASE_AUTH_EMULATOR_HOST=", in: line), bannerHost == nil {
                    bannerHost = address
                }
                if let smtp = Self.value(after: "smtp ", in: line.trimmingCharacters(in: .whitespaces)) {
                    bannerSMTP = smtp.split(separator: " ").first.map(String.init)
                }
            }
            // The banner is one write of less than PIPE_BUF, so it arrives whole: once its address
            // line is read, the SMTP line is too, and every listener it names is bound.
            if bannerHost != nil, !ready { ready = true; becameReady = true }
            return becameReady
        }
        if becameReady { wakeReadyWaiters() }
    }

    private func readStderr(_ data: Data) {
        lock.withLock {
            stderrTail.append(data)
            if stderrTail.count > 65_536 { stderrTail.removeFirst(stderrTail.count - 65_536) }
        }
    }

    private static func value(after prefix: String, in line: String) -> String? {
        line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) : nil
    }

    /// Reads `handle` to its end on a thread of its own (blocking reads; no run loop needed).
    private func drain(_ handle: FileHandle, _ consume: @escaping @Sendable (Data) -> Void) {
        let thread = Thread { [weak self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                consume(data)
            }
            self?.lock.withLock { self?.openStreams -= 1 }
        }
        thread.name = "auth-emulator output"
        thread.start()
    }
}
