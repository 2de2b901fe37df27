#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets
import Synchronization
import Threads

/// Accepts the server's connections on its own thread and reads each one's first request head
/// before libmicrohttpd does, with `MSG_PEEK`, so nothing is consumed: a head libmicrohttpd would
/// refuse with its own HTML page (see `RequestHeadScreen`) is answered here with the handler's
/// refusal and closed; any other connection is handed to libmicrohttpd untouched, to be read
/// from its first byte.
///
/// Bounded: at most `maximumScreening` connections wait for their head (more are closed at
/// accept, as libmicrohttpd closes those over its own limit); a connection that sends nothing new
/// for the idle timeout is closed, as libmicrohttpd would close it; a head that trickles in is
/// looked at less and less often, so it cannot keep this thread busy.
///
/// Only the first request of a connection is screened; later ones on a kept-alive connection,
/// and bodies, reach libmicrohttpd directly.
final class ConnectionScreener: @unchecked Sendable {
    // @unchecked Sendable: `connections`, `peekBuffer`, `isListening` and `listenQuietUntil` are
    // touched only by the screener's own thread (from `start` until `stop` has joined it); the
    // lifecycle calls share nothing with it but `commands`, a Mutex, and the wake pipe. `thread`
    // is set by `start` and read by `stop`, which the daemon owner serialises.
    typealias HandOver = (_ socket: Int32, _ peer: UnsafePointer<sockaddr>, _ length: socklen_t) -> Void

    private struct Commands {
        var stopAccepting = false
        var stop = false
    }

    private let listener: ListeningSocket
    private let screen: RequestHeadScreen
    private let answer: (HTTPRefusal) -> HTTPResponse
    private let handOver: HandOver
    private let idleTimeoutMilliseconds: Int64
    private let maximumScreening: Int
    private let commands = Mutex(Commands())
    /// One byte written per command; the thread drains it and reads `commands`.
    private let wakePipe: (read: Int32, write: Int32)
    private var thread: PosixThread?

    private var connections: [ScreenedConnection] = []
    private let peekBuffer: UnsafeMutableRawBufferPointer
    private var isListening = true
    /// After the process ran out of descriptors, accepting waits a moment instead of spinning.
    private var listenQuietUntil: Int64 = 0

    /// A first look of this many bytes holds almost every head; a fuller one looks again up to the limit.
    private static let firstLookBytes = 4096
    /// How long a refused connection may take to read our answer and close, and how much more it may send meanwhile.
    private static let lingerMilliseconds: Int64 = 2000
    private static let lingerBytes = 1 << 20

    init(
        listener: ListeningSocket, screen: RequestHeadScreen, idleTimeoutSeconds: Int, maximumScreening: Int,
        answer: @escaping (HTTPRefusal) -> HTTPResponse, handOver: @escaping HandOver
    ) throws(HTTPServerError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listener.descriptor)
            throw HTTPServerError("could not make a wake pipe: \(String(cString: strerror(errno)))")
        }
        for end in fds {
            _ = SystemSocket.makeNonBlocking(end)
            SystemSocket.closeOnExec(end)
        }
        wakePipe = (fds[0], fds[1])
        self.listener = listener
        self.screen = screen
        self.answer = answer
        self.handOver = handOver
        idleTimeoutMilliseconds = idleTimeoutSeconds > 0 ? Int64(idleTimeoutSeconds) * 1000 : .max
        self.maximumScreening = max(maximumScreening, 1)
        peekBuffer = .allocate(byteCount: max(screen.limits.maximumHeadBytes + 1, Self.firstLookBytes), alignment: 16)
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
        peekBuffer.deallocate()
    }

    func start() throws(HTTPServerError) {
        do {
            thread = try PosixThread { [self] in run() }
        } catch {
            close(listener.descriptor)  // the thread would have closed it
            throw HTTPServerError(error.description)
        }
    }

    /// Stops accepting: the listening socket is shut at once, so the kernel refuses new
    /// connections instead of queueing them; connections already accepted are still screened
    /// and handed over.
    func stopAccepting() {
        commands.withLock { commands in
            // Under the lock: the thread closes the socket only once it has read the flag.
            if !commands.stopAccepting && !commands.stop { SystemSocket.shutDown(listener.descriptor, bothWays: true) }
            commands.stopAccepting = true
        }
        wake()
    }

    /// Ends the thread and closes what it still holds (the listening socket, connections not
    /// handed over yet). Idempotent; no `handOver` call happens after it returns.
    func stop() {
        commands.withLock { $0.stop = true }
        wake()
        thread?.join()
        thread = nil
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)  // a full pipe is already a pending wake
    }

    // MARK: - The thread

    private func run() {
        var fds: [pollfd] = []
        while true {
            let wanted = commands.withLock { $0 }
            if wanted.stop { break }
            if wanted.stopAccepting && isListening {
                close(listener.descriptor)
                isListening = false
            }
            var now = MonotonicClock.milliseconds()
            let deadline = pollSet(&fds, now: now)
            let timeout = deadline == .max ? -1 : Int32(clamping: max(0, deadline - now))
            if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR { break }
            if fds[0].revents != 0 { drainWakePipe() }
            now = MonotonicClock.milliseconds()
            // Backwards, so a connection swapped into a finished one's place has been seen already.
            var index = connections.count - 1
            while index >= 0 {
                if !advance(&connections[index], events: fds[index + 2].revents, now: now) {
                    connections.swapAt(index, connections.count - 1)
                    connections.removeLast()
                }
                index -= 1
            }
            if isListening && fds[1].revents != 0 { acceptWaiting(now: now) }
        }
        for connection in connections { close(connection.socket) }
        connections.removeAll()
        if isListening { close(listener.descriptor) }
    }

    /// The wake pipe, the listening socket and one entry per connection (a negative descriptor,
    /// which poll skips, for one waiting out a pause); returns the earliest deadline.
    private func pollSet(_ fds: inout [pollfd], now: Int64) -> Int64 {
        fds.removeAll(keepingCapacity: true)
        fds.append(pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0))
        let listening = isListening && listenQuietUntil <= now
        fds.append(pollfd(fd: listening ? listener.descriptor : -1, events: Int16(POLLIN), revents: 0))
        var earliest: Int64 = isListening && !listening ? listenQuietUntil : .max
        for connection in connections {
            var events = Int16(POLLIN)
            switch connection.stage {
            case .screening:
                if connection.pausedUntil > now {
                    events = 0
                    earliest = min(earliest, connection.pausedUntil)
                }
            case .answering: events = Int16(POLLOUT)
            case .draining: break
            }
            earliest = min(earliest, connection.deadline)
            fds.append(pollfd(fd: events == 0 ? -1 : connection.socket, events: events, revents: 0))
        }
        return earliest
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakePipe.read, &bytes, bytes.count) > 0 {}
    }

    private func acceptWaiting(now: Int64) {
        for _ in 0..<64 {  // then poll again, so the connections already in are not kept waiting
            var peer = sockaddr_storage()
            var length = socklen_t(0)
            let client = SystemSocket.acceptConnection(listener.descriptor, &peer, &length)
            if client < 0 {
                if errno == EMFILE || errno == ENFILE { listenQuietUntil = now + 100 }
                return
            }
            guard connections.count < maximumScreening else {
                close(client)
                continue
            }
            var connection = ScreenedConnection(socket: client, peer: peer, peerLength: length)
            connection.deadline = now.addingClamped(idleTimeoutMilliseconds)
            // The head has often arrived with the connection: look at once.
            if advance(&connection, events: Int16(POLLIN), now: now) { connections.append(connection) }
        }
    }

    /// One step for a connection that poll reported on (or whose time is up); false once it is
    /// done with here: handed over, or closed.
    private func advance(_ connection: inout ScreenedConnection, events: Int16, now: Int64) -> Bool {
        if events == 0 {
            guard now >= connection.deadline else { return true }
            close(connection.socket)  // silent for the idle timeout, or slow to take its answer
            return false
        }
        switch connection.stage {
        case .screening: return look(at: &connection, events: events, now: now)
        case .answering, .draining: return continueAnswer(&connection)
        }
    }

    /// Peeks at what has come and decides: wait, hand over, or refuse.
    private func look(at connection: inout ScreenedConnection, events: Int16, now: Int64) -> Bool {
        let limit = screen.limits.maximumHeadBytes + 1
        var size = connection.seen >= Self.firstLookBytes ? limit : min(Self.firstLookBytes, limit)
        var verdict = RequestHeadScreen.Verdict.incomplete
        var count = 0
        while true {
            count = recv(connection.socket, peekBuffer.baseAddress, size, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            if count <= 0 {
                close(connection.socket)  // gone, or closed before sending a head
                return false
            }
            verdict = screen.verdict(on: UnsafeRawBufferPointer(rebasing: peekBuffer[0..<count]))
            guard verdict == .incomplete, count == size, size < limit else { break }
            size = limit  // the first look was full: look at everything up to the limit
        }
        switch verdict {
        case .acceptable:
            if connection.lowWater > 1 { SystemSocket.setReceiveLowWater(connection.socket, 1) }
            withUnsafePointer(to: &connection.peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handOver(connection.socket, $0, connection.peerLength) }
            }
            return false
        case .refused(let refusal):
            if connection.lowWater > 1 { SystemSocket.setReceiveLowWater(connection.socket, 1) }
            connection.stage = .answering(RefusalMessage.bytes(of: answer(refusal), status: refusal.status), sent: 0)
            connection.deadline = now.addingClamped(Self.lingerMilliseconds)
            return continueAnswer(&connection)
        case .incomplete:
            return awaitMore(&connection, seen: count, now: now)
        }
    }

    /// An unfinished head: wake again only for bytes beyond those seen. No new bytes after a
    /// wake that asked for them means the peer has closed its side (poll reports that as
    /// readable). Each look after the eighth waits a little longer, up to a quarter second.
    private func awaitMore(_ connection: inout ScreenedConnection, seen: Int, now: Int64) -> Bool {
        if seen <= connection.seen && connection.lowWater > connection.seen {
            close(connection.socket)
            return false
        }
        connection.looks += 1
        if seen > connection.seen {
            connection.seen = seen
            connection.deadline = now.addingClamped(idleTimeoutMilliseconds)
        }
        connection.lowWater = SystemSocket.setReceiveLowWater(connection.socket, seen + 1) ? seen + 1 : 1
        if connection.looks > 8 { connection.pausedUntil = now + min(Int64(1) << min(connection.looks - 8, 8), 250) }
        return true
    }

    /// Sends what is left of the answer, then shuts our side and reads (and drops) what the peer
    /// still sends until it closes, so the close does not reset the connection before the peer
    /// has read the answer.
    private func continueAnswer(_ connection: inout ScreenedConnection) -> Bool {
        if case .answering(let output, var sent) = connection.stage {
            while sent < output.count {
                let count = output[sent...].withUnsafeBytes { SystemSocket.transmit(connection.socket, $0, waiting: false) }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    connection.stage = .answering(output, sent: sent)
                    return true
                }
                if count <= 0 {
                    close(connection.socket)
                    return false
                }
                sent += count
            }
            SystemSocket.shutDown(connection.socket, bothWays: false)
            connection.stage = .draining(dropped: 0)
        }
        guard case .draining(var dropped) = connection.stage else { return true }
        while true {
            let count = recv(connection.socket, peekBuffer.baseAddress, peekBuffer.count, Int32(MSG_DONTWAIT))
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && dropped <= Self.lingerBytes {
                connection.stage = .draining(dropped: dropped)
                return true
            }
            if count <= 0 || dropped > Self.lingerBytes {
                close(connection.socket)
                return false
            }
            dropped += count
        }
    }
}

/// A connection the screener holds: waiting for its first head, or being refused.
private struct ScreenedConnection {
    enum Stage {
        case screening
        /// The refusal, and how much of it has been sent.
        case answering([UInt8], sent: Int)
        /// Answered and shut on our side; what the peer still sends is dropped.
        case draining(dropped: Int)
    }

    let socket: Int32
    var peer: sockaddr_storage
    let peerLength: socklen_t
    var stage = Stage.screening
    /// Bytes the last look saw.
    var seen = 0
    /// The socket's SO_RCVLOWAT, so it is set back to 1 before libmicrohttpd gets the socket.
    var lowWater = 1
    var looks = 0
    var pausedUntil: Int64 = 0
    /// The idle timeout while screening; the linger limit once refused (monotonic milliseconds).
    var deadline: Int64 = .max

    init(socket: Int32, peer: sockaddr_storage, peerLength: socklen_t) {
        self.socket = socket
        self.peer = peer
        self.peerLength = peerLength
    }
}

enum MonotonicClock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension Int64 {
    fileprivate func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
