import AuthEmulator
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTTPClient
import JSON

// Thin by design: parse flags, start, wait for a signal, stop.

// SIGINT and SIGTERM are blocked before any thread exists, so every thread inherits the block and
// a signal stays pending until the main thread, once serving, takes it with sigwait. (A dispatch
// signal source registers asynchronously: a SIGTERM sent in that window, with the signal
// ignored, was lost and the process never stopped.)
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
// A file-size limit (`ulimit -f`) must fail the database write it stops (a clear 503), not kill
// the server with SIGXFSZ.
signal(SIGXFSZ, SIG_IGN)

let started = ContinuousClock.now
let configuration: AuthEmulator.Configuration
do {
    switch try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment) {
    case .run(let parsed): configuration = parsed
    case .mint(let command): exit(mint(command))
    case .export(let command): exit(export(command))
    case .help:
        print(CommandLineOptions.usage)
        exit(0)
    case .version:
        print("auth-emulator \(CommandLineOptions.version)")
        exit(0)
    }
} catch {
    ProcessOutput.standardError.write("auth-emulator: \(error)\n\(CommandLineOptions.usage)\n")
    exit(2)
}

/// Prints the running emulator's mint answer; non-zero when it cannot be reached or refuses.
func mint(_ command: MintCommand) -> Int32 {
    do {
        let response = try HTTPClient.send(
            "POST", command.url, headers: [("Content-Type", "application/json")], body: Array(command.jsonBody.utf8))
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200 else {
            ProcessOutput.standardError.write("auth-emulator mint: \(command.server) answered \(response.status): \(text)\n")
            return 1
        }
        print(text)
        // The answer's warnings (a nonce that looks hashed already) also go where a person looks.
        let warnings = (try? JSONValue(parsing: text))?["warnings"]?.arrayValue ?? []
        for warning in warnings.compactMap(\.stringValue) {
            ProcessOutput.standardError.write("auth-emulator mint: warning: \(warning)\n")
        }
        return 0
    } catch {
        ProcessOutput.standardError.write("auth-emulator mint: cannot reach \(command.server): \(error)\n")
        return 1
    }
}

/// Writes the export of a stopped `--data` file; non-zero when it cannot.
func export(_ command: ExportCommand) -> Int32 {
    do {
        let count = try command.run()
        print("auth-emulator export: \(count) users written to \(command.outDirectory)")
        return 0
    } catch {
        ProcessOutput.standardError.write("auth-emulator export: \(error)\n")
        return 1
    }
}

let emulator: AuthEmulator
do {
    emulator = try AuthEmulator(configuration: configuration)
} catch {
    ProcessOutput.standardError.write("auth-emulator: \(error)\n")
    exit(1)
}

do {
    try emulator.start()
} catch {
    ProcessOutput.standardError.write("auth-emulator: \(error)\n")
    exit(1)
}

let startup = started.duration(to: .now).components
let startupMilliseconds = startup.seconds * 1000 + (startup.attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
let boundHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
// Where it listens, then the address a client can use (never the wildcard 0.0.0.0).
let address = configuration.clientAddress(port: emulator.port)
let smtpLine = emulator.smtpAddress.map { "  smtp            \($0) (the app's own mail, into the outbox)\n" } ?? ""
ProcessOutput.standardOutput.write(
    """
    auth-emulator \(CommandLineOptions.version) listening on http://\(boundHost):\(emulator.port) for project \(configuration.projectId) \
    (\(configuration.dataFile.map { "data in \($0)" } ?? "in memory"), ready in \(startupMilliseconds) ms)
    export FIREBASE_AUTH_EMULATOR_HOST=\(address)
      console         http://\(address)/emulator/ui
      outbox          http://\(address)/emulator/v1/projects/\(configuration.projectId)/messages
      fake providers  http://\(address)/emulator/v1/idp/{apple.com,facebook.com,google.com,yahoo.com,…}/tokens
      clock           http://\(address)/emulator/v1/clock
    \(smtpLine)  provider tokens \(configuration.idpTokenMode.rawValue), ID tokens \(configuration.idTokenMode.rawValue)\(
        configuration.idTokenMode == .signed ? " (keys at http://\(address)/emulator/v1/securetoken/jwks)" : "")

    """)

// Stop on SIGINT/SIGTERM, letting requests in flight finish.
var received: Int32 = 0
sigwait(&stopSignals, &received)
let exported = emulator.stop()
ProcessOutput.standardOutput.write("auth-emulator stopped\n")
exit(exported ? 0 : 1)
