#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals the main thread takes with `sigwait`. They are blocked before any thread exists,
/// so every thread inherits the block and a signal stays pending until the main thread takes it.
/// (A dispatch signal source registers asynchronously: a SIGTERM sent in that window, with the
/// signal ignored, was lost and the process never stopped.)
struct SignalSet {
    /// Serving: stop on either.
    static let serve = SignalSet([SIGINT, SIGTERM])
    /// `exec`: what a terminal, a CI runner or `docker stop` sends is passed on to the command,
    /// and SIGCHLD says the command ended.
    static let exec = SignalSet([SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD])
    /// What `exec` passes on (all but SIGCHLD).
    static let forwarded: Set<Int32> = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private var set = sigset_t()

    private init(_ signals: [Int32]) {
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
    }

    func block() {
        var set = set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// The next of these signals, once one arrives.
    func wait() -> Int32 {
        var set = set
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }

    /// One of these signals that already arrived (during start-up), taken; nil when none did.
    func takePending() -> Int32? {
        var pending = sigset_t()
        sigpending(&pending)
        var set = set
        for signal in SignalSet.forwarded where sigismember(&set, signal) == 1 && sigismember(&pending, signal) == 1 {
            return wait()
        }
        return nil
    }
}
