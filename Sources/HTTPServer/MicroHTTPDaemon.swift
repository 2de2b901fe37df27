internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one running libmicrohttpd daemon, the retained callback context, and the screener that
/// accepts its connections (libmicrohttpd has no listening socket of its own). Not thread-safe;
/// `HTTPServer` serialises it.
final class MicroHTTPDaemon {
    let dispatcher: RequestDispatcher
    let boundPort: UInt16
    private var daemon: OpaquePointer?
    private var screener: ConnectionScreener?

    init(address: ListenAddress, threadCount: Int, connectionTimeoutSeconds: Int, dispatcher: RequestDispatcher)
        throws(HTTPServerError)
    {
        let listener = try ListeningSocket(address)
        let context = Unmanaged.passRetained(dispatcher)
        let started = cmhd_start_daemon(
            UInt32(clamping: max(threadCount, 1)), UInt32(clamping: max(connectionTimeoutSeconds, 0)),
            dispatcher.limits.connectionMemoryBytes, UInt32(clamping: max(dispatcher.limits.maximumConnections, 1)),
            RequestDispatcher.accessHandler, RequestDispatcher.requestCompleted, RequestDispatcher.requestLineReceived,
            context.toOpaque())
        guard let started else {
            context.release()
            close(listener.descriptor)
            throw HTTPServerError("could not listen on \(address): libmicrohttpd refused to start")
        }
        self.daemon = started
        self.dispatcher = dispatcher
        self.boundPort = listener.port
        let screen = RequestHeadScreen(limits: dispatcher.limits, maximumBodyBytes: dispatcher.maximumBodyBytes)
        do {
            let screener = try ConnectionScreener(
                listener: listener, screen: screen, idleTimeoutSeconds: connectionTimeoutSeconds,
                maximumScreening: dispatcher.limits.maximumConnections, answer: dispatcher.answer(to:)
            ) { socket, peer, length in
                // MHD owns the socket from here, and closes it itself when over its connection limit.
                _ = MHD_add_connection(started, socket, peer, length)
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
    /// running finishes first), then releases the callback context. Idempotent.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        // First the screener, so no connection is handed to a daemon that is stopping.
        screener?.stop()
        screener = nil
        // MHD must not stop with suspended connections: answer them first (MHD resumes them as it stops).
        dispatcher.suspended.completeAll(with: dispatcher.handler.respondToShutdown())
        MHD_stop_daemon(daemon)
        Unmanaged.passUnretained(dispatcher).release()
    }
}
