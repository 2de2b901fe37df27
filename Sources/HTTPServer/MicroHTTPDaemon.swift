internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the running libmicrohttpd daemons (one per thread, none with a listening socket), their
/// retained callback contexts, and the screener that accepts their connections. Not thread-safe;
/// `HTTPServer` serialises it.
final class MicroHTTPDaemon {
    /// The first daemon's; its in-flight count and suspended requests are every daemon's.
    let dispatcher: RequestDispatcher
    let boundPort: UInt16
    private var daemons: [(daemon: OpaquePointer, dispatcher: RequestDispatcher, connectionLimit: Int)] = []
    private var screener: ConnectionScreener?

    init(address: ListenAddress, threadCount: Int, connectionTimeoutSeconds: Int, dispatcher: RequestDispatcher)
        throws(HTTPServerError)
    {
        self.dispatcher = dispatcher
        let listener = try ListeningSocket(address)
        boundPort = listener.port
        let count = max(threadCount, 1)
        let limits = dispatcher.limits
        for index in 0..<count {
            let own = index == 0 ? dispatcher : RequestDispatcher(siblingOf: dispatcher)
            // MHD's own pool splits its connection limit the same way.
            let share = max(1, limits.maximumConnections / count + (index < limits.maximumConnections % count ? 1 : 0))
            let context = Unmanaged.passRetained(own)
            guard
                let daemon = cmhd_start_daemon(
                    UInt32(clamping: max(connectionTimeoutSeconds, 0)), limits.connectionMemoryBytes, UInt32(clamping: share),
                    RequestDispatcher.accessHandler, RequestDispatcher.requestCompleted,
                    RequestDispatcher.requestLineReceived, context.toOpaque())
            else {
                context.release()
                close(listener.descriptor)
                stop()
                throw HTTPServerError("could not listen on \(address): libmicrohttpd refused to start")
            }
            daemons.append((daemon, own, share))
        }
        let screen = RequestHeadScreen(limits: limits, maximumBodyBytes: dispatcher.maximumBodyBytes)
        let chooser = DaemonChooser(daemons)
        do {
            let screener = try ConnectionScreener(
                listener: listener, screen: screen, idleTimeoutSeconds: connectionTimeoutSeconds,
                maximumScreening: limits.maximumConnections, answer: dispatcher.answer(to:)
            ) { socket, peer, length in
                // MHD owns the socket from here, and closes it itself when over its connection limit.
                _ = MHD_add_connection(chooser.next(), socket, peer, length)
            }
            try screener.start()
            self.screener = screener
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops accepting: the screener shuts the listening socket, so the kernel refuses new
    /// connections at once instead of queueing them unanswered. Connections already open (and
    /// requests on them) carry on.
    func stopAccepting() {
        screener?.stopAccepting()
    }

    /// Closes every connection and joins the screener's and MHD's threads (a handler call still
    /// running finishes first), then releases the callback contexts. Idempotent.
    func stop() {
        // First the screener, so no connection is handed to a daemon that is stopping.
        screener?.stop()
        screener = nil
        guard !daemons.isEmpty else { return }
        // MHD must not stop with suspended connections: answer them first (MHD resumes them as it stops).
        dispatcher.suspended.completeAll(with: dispatcher.handler.respondToShutdown())
        for (daemon, own, _) in daemons {
            MHD_stop_daemon(daemon)
            Unmanaged.passUnretained(own).release()
        }
        daemons = []
    }
}

/// Picks the daemon for a new connection: one whose thread is not in a handler call and that is
/// under its connection limit, starting each time one further along so the idle ones share the
/// work. MHD's own thread pool picked by the socket's number, so a handler waiting on a slow
/// blocking function stalled every new connection that happened to land on its thread. Used
/// only on the screener's thread.
private final class DaemonChooser {
    private let daemons: [(daemon: OpaquePointer, dispatcher: RequestDispatcher, connectionLimit: Int)]
    private var start = 0

    init(_ daemons: [(daemon: OpaquePointer, dispatcher: RequestDispatcher, connectionLimit: Int)]) { self.daemons = daemons }

    func next() -> OpaquePointer {
        let count = daemons.count
        start = (start + 1) % count
        var best = start
        var bestBusy = Int.max
        for offset in 0..<count {
            let index = (start + offset) % count
            let busy = daemons[index].dispatcher.busy.load(ordering: .relaxed)
            let isFull = Int(cmhd_open_connections(daemons[index].daemon)) >= daemons[index].connectionLimit
            if busy < bestBusy && !(isFull && count > 1) {
                best = index
                bestBusy = busy
                if busy == 0 { break }
            }
        }
        return daemons[best].daemon
    }
}
