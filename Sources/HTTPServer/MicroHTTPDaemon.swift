internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Owns the running libmicrohttpd daemons (one per thread, none with a listening socket), their
/// retained callback contexts, and the screener that accepts their connections. Not thread-safe;
/// `HTTPServer` serialises it.
final class MicroHTTPDaemon {
    /// The first daemon's; its in-flight count and suspended requests are every daemon's.
    let dispatcher: RequestDispatcher
    let boundPort: UInt16
    private var daemons: [(daemon: OpaquePointer, dispatcher: RequestDispatcher, connectionLimit: Int)] = []
    private var screener: ConnectionScreener?

    /// Takes `listener` over: it is closed when the daemon stops, or here if it cannot start.
    init(listener: ListeningSocket, threadCount: Int, connectionTimeoutSeconds: Int, dispatcher: RequestDispatcher)
        throws(HTTPServerError)
    {
        self.dispatcher = dispatcher
        boundPort = listener.port
        let count = max(threadCount, 1)
        let limits = dispatcher.limits
        // libmicrohttpd 0.9.75 leaves a daemon's cleanup mutex locked when a connection added with
        // MHD_add_connection finds the daemon at its connection limit once the daemon's thread
        // takes it in (new_connection_process_; fixed upstream in 1.0.0): the thread deadlocks on
        // that mutex at its next cleanup, its connections go unanswered and MHD_stop_daemon never
        // returns. MHD's own check as the connection is added cannot prevent it: MHD counts a
        // connection only once the thread takes it in, so a burst handed over while the thread is
        // busy all pass. So each daemon's share of the limit is enforced here instead, with a
        // count that includes the connections on their way in (`RequestDispatcher.openConnections`),
        // and MHD's limit is set where that count never lets it be reached: a share is at most the
        // whole limit, and MHD may count one more for a moment (the one being closed, whose notice
        // has come).
        let mhdLimit = UInt32(clamping: limits.maximumConnections + 2)
        for index in 0..<count {
            let own = index == 0 ? dispatcher : RequestDispatcher(siblingOf: dispatcher)
            // MHD's own pool splits its connection limit the same way.
            let share = max(1, limits.maximumConnections / count + (index < limits.maximumConnections % count ? 1 : 0))
            let context = Unmanaged.passRetained(own)
            guard
                let daemon = cmhd_start_daemon(
                    UInt32(clamping: max(connectionTimeoutSeconds, 0)), limits.connectionMemoryBytes, mhdLimit,
                    RequestDispatcher.accessHandler, RequestDispatcher.requestCompleted,
                    RequestDispatcher.requestLineReceived, RequestDispatcher.connectionNotice, context.toOpaque())
            else {
                context.release()
                close(listener.descriptor)
                stop()
                throw HTTPServerError("could not listen on \(listener.address): libmicrohttpd refused to start")
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
                // Every daemon at its share: closed unanswered, as MHD closes one over its limit.
                guard let chosen = chooser.next() else {
                    close(socket)
                    return
                }
                // Counted before MHD can close it. MHD owns the socket from here; when it refuses
                // the connection at once, it has closed it already.
                chosen.dispatcher.openConnections.add(1, ordering: .relaxed)
                if MHD_add_connection(chosen.daemon, socket, peer, length) != .YES {
                    chosen.dispatcher.openConnections.subtract(1, ordering: .relaxed)
                }
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

/// Picks the daemon for a new connection: one under its share of the connection limit whose
/// thread is not in a handler call (or, when every such thread is, any under its share), starting
/// each time one further along so the idle ones share the work; nil when all are at their share.
/// MHD's own thread pool picked by the socket's number, so a handler waiting on a slow blocking
/// function stalled every new connection that happened to land on its thread. Used only on the
/// screener's thread, the only one that counts connections up, so a count it reads is never
/// below the true one.
private final class DaemonChooser {
    typealias Daemon = (daemon: OpaquePointer, dispatcher: RequestDispatcher, connectionLimit: Int)
    private let daemons: [Daemon]
    private var start = 0

    init(_ daemons: [Daemon]) { self.daemons = daemons }

    func next() -> Daemon? {
        let count = daemons.count
        start = (start + 1) % count
        var best: Int?
        var bestBusy = Int.max
        for offset in 0..<count {
            let index = (start + offset) % count
            guard daemons[index].dispatcher.openConnections.load(ordering: .relaxed) < daemons[index].connectionLimit
            else { continue }
            let busy = daemons[index].dispatcher.busy.load(ordering: .relaxed)
            if busy < bestBusy {
                best = index
                bestBusy = busy
                if busy == 0 { break }
            }
        }
        return best.map { daemons[$0] }
    }
}
