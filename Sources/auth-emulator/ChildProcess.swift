#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command `exec` runs. It gets a process group of its own, so that a signal passed on
/// reaches everything it started (a shell's children too, which signalling the shell alone
/// would orphan), and the signal state of a fresh process: nothing blocked, and SIGPIPE and
/// SIGXFSZ (which the emulator ignores) back to their defaults.
struct ChildProcess {
    /// How the command ended.
    enum Termination: Equatable {
        case exited(Int32)
        case killed(signal: Int32)

        /// The exit status a shell reports: the code, or 128 plus the signal.
        var status: Int32 {
            switch self {
            case .exited(let code): code
            case .killed(let signal): 128 + signal
            }
        }
    }

    let pid: pid_t

    /// Spawns `arguments` (the program found on PATH) with `environment`; the `errno` of a
    /// failure (ENOENT: no such program).
    static func spawn(_ arguments: [String], environment: [String: String]) -> Result<ChildProcess, SpawnError> {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGXFSZ, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        return result == 0 ? .success(ChildProcess(pid: pid)) : .failure(SpawnError(code: result))
    }

    /// Sends `signal` to the command's whole process group.
    func signal(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// How the command ended, once it has (and reaps it); nil while it runs.
    func termination() -> Termination? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift cannot import; the encoding is
        // the same on Linux and Darwin.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
    }
}

/// Why a command could not be started.
struct SpawnError: Error, CustomStringConvertible {
    let code: Int32

    var description: String { String(cString: strerror(code)) }

    /// A shell's status for it: 127 for a command that is not there, 126 for one that cannot run.
    var status: Int32 { code == ENOENT ? 127 : 126 }
}

/// While `exec`'s command runs in a terminal, its process group holds the terminal's foreground,
/// as a shell's job would: it can read the keyboard, and Ctrl-C reaches it straight from the
/// terminal. Only when `exec` itself held the foreground (not in a pipeline's background, not in CI).
struct TerminalForeground {
    private let terminal: Int32

    /// Hands the terminal on standard input to `child`'s group, when this process holds it.
    static func hand(to child: ChildProcess) -> TerminalForeground? {
        guard isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp() else { return nil }
        guard tcsetpgrp(STDIN_FILENO, child.pid) == 0 else { return nil }
        // A read from the terminal before the hand-over stopped the command (SIGTTIN): resume it.
        child.signal(SIGCONT)
        return TerminalForeground(terminal: STDIN_FILENO)
    }

    /// Takes the terminal back. A background group's `tcsetpgrp` raises SIGTTOU, ignored meanwhile.
    func takeBack() {
        let previous = signal(SIGTTOU, SIG_IGN)
        tcsetpgrp(terminal, getpgrp())
        signal(SIGTTOU, previous)
    }
}
