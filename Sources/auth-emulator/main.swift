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

// Thin by design: parse flags, start, wait for a signal (or for exec's command), stop.

// A file-size limit (`ulimit -f`) must fail the database write it stops (a clear 503), not kill
// the server with SIGXFSZ.
signal(SIGXFSZ, SIG_IGN)

let started = ContinuousClock.now
let serve: ServeCommand
var execCommand: ExecCommand?
do {
    switch try CommandLineOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
        workingDirectory: FileManager.default.currentDirectoryPath)
    {
    case .run(let command): serve = command
    case .exec(let command):
        serve = command.serve
        execCommand = command
    case .mint(let command): exit(mint(command))
    case .export(let command): exit(export(command))
    case .help(let usage):
        print(usage, terminator: "")
        exit(0)
    case .version:
        print(VersionReport.text)
        exit(0)
    }
} catch {
    ProcessOutput.standardError.write("auth-emulator: \(error)\n\(error.hint.map { "\($0)\n" } ?? "")")
    exit(2)
}
let configuration = serve.configuration
let signals = execCommand == nil ? SignalSet.serve : SignalSet.exec
signals.block()
// exec: SIGCHLD's default is to discard it; a handler (never run while it is blocked) keeps it
// pending for sigwait.
signal(SIGCHLD) { _ in }

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
let banner = Banner.text(for: emulator, origins: serve.origins, startupMilliseconds: startupMilliseconds)
if let execCommand {
    // exec's standard output is its command's: the banner goes to standard error.
    ProcessOutput.standardError.write(banner)
    exit(ExecSession(command: execCommand, emulator: emulator, signals: signals).run())
}
ProcessOutput.standardOutput.write(banner)

// Stop on SIGINT/SIGTERM, letting requests in flight finish.
_ = signals.wait()
let exported = emulator.stop()
ProcessOutput.standardOutput.write("auth-emulator stopped\n")
exit(exported ? 0 : 1)
