import AuthEmulator
#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// `auth-emulator exec`, once the emulator serves: runs the command against it, passes on the
/// signals this process gets, then stops the emulator (writing `--export-on-exit`) and answers
/// the status to exit with: the command's, as a shell reports it.
struct ExecSession {
    let command: ExecCommand
    let emulator: AuthEmulator
    /// Already blocked: `SignalSet.exec`.
    let signals: SignalSet

    func run() -> Int32 {
        // Asked to stop while the emulator was starting: the command never starts.
        if let early = signals.takePending() {
            emulator.stop()
            return 128 + early
        }
        let environment = command.environment(
            inheriting: ProcessInfo.processInfo.environment,
            emulatorHost: emulator.configuration.clientAddress(port: emulator.port), smtpAddress: emulator.smtpAddress)
        let child: ChildProcess
        switch ChildProcess.spawn(command.processArguments, environment: environment) {
        case .success(let started): child = started
        case .failure(let error):
            report("cannot run \(command.processArguments[0]): \(error)")
            emulator.stop()
            return error.status
        }
        let terminal = TerminalForeground.hand(to: child)
        let termination = waitForExit(of: child)
        terminal?.takeBack()
        switch termination {
        case .exited(0): break
        case .exited(let code): report("\(described) exited with status \(code)")
        case .killed(let signal): report("\(described) was killed by signal \(signal) (exit status \(termination.status))")
        }
        let exported = emulator.stop()
        // A failed export fails a run whose command passed: CI must not miss it.
        return termination.status == 0 && !exported ? 1 : termination.status
    }

    /// Passes on every signal but SIGCHLD until the command has ended.
    private func waitForExit(of child: ChildProcess) -> ChildProcess.Termination {
        while true {
            let received = signals.wait()
            if SignalSet.forwarded.contains(received) {
                child.signal(received)
            } else if let termination = child.termination() {
                return termination
            }
        }
    }

    private var described: String { "`\(command.command.joined(separator: " "))`" }

    private func report(_ message: String) {
        ProcessOutput.standardError.write("auth-emulator exec: \(message)\n")
    }
}
