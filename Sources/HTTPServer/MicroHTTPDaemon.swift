internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one running libmicrohttpd daemon: the daemon pointer, the retained callback context and,
/// once quiesced, the listening socket MHD hands back. Not thread-safe; `HTTPServer` serialises it.
final class MicroHTTPDaemon {
    let dispatcher: RequestDispatcher
    let boundPort: UInt16
    private var daemon: OpaquePointer?
    private var quiescedListenSocket: Int32 = -1

    init(address: ListenAddress, threadCount: Int, connectionTimeoutSeconds: Int, dispatcher: RequestDispatcher)
        throws(HTTPServerError)
    {
        let context = Unmanaged.passRetained(dispatcher)
        errno = 0
        let started = try address.withSocketAddress { socketAddress in
            cmhd_start_daemon(
                address.isIPv6 ? 1 : 0, socketAddress, UInt32(clamping: max(threadCount, 1)),
                UInt32(clamping: max(connectionTimeoutSeconds, 0)), dispatcher.limits.connectionMemoryBytes,
                UInt32(clamping: max(dispatcher.limits.maximumConnections, 1)), RequestDispatcher.accessHandler,
                RequestDispatcher.requestCompleted, RequestDispatcher.requestLineReceived, context.toOpaque())
        }
        guard let started else {
            // MHD reports nothing but NULL; a failed bind/listen leaves its errno behind.
            let reason = errno == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(errno))
            context.release()
            throw HTTPServerError("could not listen on \(address): \(reason)")
        }
        self.daemon = started
        self.dispatcher = dispatcher
        self.boundPort = cmhd_bound_port(started)
    }

    deinit { stop() }

    /// Stops accepting: MHD drops the listening socket from its polling, and shutting the socket
    /// down makes the kernel refuse new connections at once instead of queueing them unanswered.
    /// Connections already open (and requests on them) carry on.
    func stopAccepting() {
        guard let daemon, quiescedListenSocket < 0 else { return }
        quiescedListenSocket = MHD_quiesce_daemon(daemon)
        if quiescedListenSocket >= 0 { _ = Self.shutDownSocket(quiescedListenSocket) }
    }

    /// `shutdown(2)` under another name: `shutdown` here would be this type's own stop call.
    private static func shutDownSocket(_ socket: Int32) -> Int32 { shutdown(socket, Int32(SHUT_RDWR)) }

    /// Closes every connection and joins MHD's threads (a handler call still running finishes
    /// first), then releases the callback context. Idempotent.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        // MHD must not stop with suspended connections: answer them first (MHD resumes them as it stops).
        dispatcher.suspended.completeAll(with: dispatcher.handler.respondToShutdown())
        MHD_stop_daemon(daemon)
        // MHD leaves a quiesced socket to us, and it must outlive the daemon's threads.
        if quiescedListenSocket >= 0 {
            close(quiescedListenSocket)
            quiescedListenSocket = -1
        }
        Unmanaged.passUnretained(dispatcher).release()
    }
}
