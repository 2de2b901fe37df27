internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What MHD's threads need to turn a connection's request into a handler call: the handler, the
/// limits and the in-flight count. It is a daemon's callback context (retained by the daemon
/// owner until `MHD_stop_daemon` returns), so the callbacks never touch `HTTPServer` itself and
/// its deinit cannot race a request. Each daemon has its own, sharing the in-flight count and the
/// suspended requests with its siblings.
final class RequestDispatcher: Sendable {
    let handler: any HTTPHandler
    let maximumBodyBytes: Int
    /// How much of a body over `maximumBodyBytes` is read and dropped before the 413 (a later
    /// request of a kept-alive connection; the first one's is the screener's to answer).
    var drainLimit: Int { oversizeDrainBytes(maximumBodyBytes: maximumBodyBytes) }
    let limits: HTTPLimits
    let inFlight: InFlightRequests
    let suspended: SuspendedRequests
    /// Handler calls running now on this dispatcher's daemon thread (0 or 1), so a new connection
    /// goes to a daemon whose thread is free.
    let busy = Atomic<Int>(0)
    /// Connections handed to this dispatcher's daemon and not yet closed by it: counted up when
    /// handed over, down when MHD reports the connection closed. MHD's own count misses the
    /// connections handed over but not yet taken in by the daemon's thread, so it cannot tell
    /// how many more the daemon can take (see `MicroHTTPDaemon`). It can only err high: a
    /// connection MHD drops as its thread takes it in (no memory for its pool) is never reported.
    let openConnections = Atomic<Int>(0)

    init(handler: any HTTPHandler, maximumBodyBytes: Int, limits: HTTPLimits = HTTPLimits()) {
        self.handler = handler
        self.maximumBodyBytes = maximumBodyBytes
        self.limits = limits
        inFlight = InFlightRequests()
        suspended = SuspendedRequests()
    }

    /// One for another daemon of the same server.
    init(siblingOf dispatcher: RequestDispatcher) {
        handler = dispatcher.handler
        maximumBodyBytes = dispatcher.maximumBodyBytes
        limits = dispatcher.limits
        inFlight = dispatcher.inFlight
        suspended = dispatcher.suspended
    }

    /// The answer to a refusal, sent with `refusal.status`: a body over the limit has the
    /// handler's own answer for that.
    func answer(to refusal: HTTPRefusal) -> HTTPResponse {
        if case .bodyTooLarge(let limit) = refusal.reason { return handler.respondToOversizedBody(limit: limit) }
        return handler.respondToRefusal(refusal)
    }

    /// The C callback signatures, bound to the functions below.
    static let accessHandler: MHD_AccessHandlerCallback = handleAccess
    static let requestCompleted: MHD_RequestCompletedCallback = handleCompletion
    static let requestLineReceived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = handleRequestLine
    static let connectionNotice: MHD_NotifyConnectionCallback = handleConnectionNotice
}

/// One request's state between MHD's calls: checked against the limits, receiving the body, then
/// suspended while a deferred answer is pending. Created when the request line is in (or on the
/// first access call), freed in the completion callback; only the connection's own thread touches it.
private final class PendingRequest {
    /// A refusal decided from the request line, answered once the headers are in.
    var refusal: HTTPRefusal?
    /// Set on the first access call, once the headers have been checked.
    var headersChecked = false
    /// The header fields, collected once on the first access call (the checks and the request share them).
    var headers: [(name: String, value: String)] = []
    /// Set once the handler has the request: only those count as in flight for a graceful
    /// shutdown, so a client that never finishes its body cannot hold the shutdown up.
    var isCounted = false
    var body: [UInt8] = []
    /// Set once the body is known to exceed the limit; from then on uploads are dropped.
    var isOversized = false
    /// Bytes of an oversized body read and dropped so far (see `RequestDispatcher.drainLimit`).
    var drained = 0
    /// Set when the handler deferred its answer: MHD calls again once the connection resumes, and
    /// that call must deliver the answer rather than dispatch the request a second time.
    var deferred: ResponseCompletion?
}

// MARK: - C callbacks (no Swift error or unwinding may cross these)

/// MHD calls this once with the headers, once per body chunk, then once with no data.
private func handleAccess(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
    uploadDataSize: UnsafeMutablePointer<Int>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let uploadDataSize, let requestContext else { return .NO }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue()
    let limit = dispatcher.maximumBodyBytes

    let pending: PendingRequest
    if let existing = requestContext.pointee {
        pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    } else {
        pending = PendingRequest()
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
    }
    if !pending.headersChecked {
        // Headers are in, no body yet. Refuse now what breaks a limit: answering before the body
        // makes MHD skip it (and any `100 Continue`) and close the connection.
        pending.headersChecked = true
        pending.headers = values(of: .HEADER_KIND, on: connection)
        if let refusal = pending.refusal ?? headerRefusal(pending.headers, dispatcher.limits) {
            return queue(dispatcher.answer(to: refusal), status: refusal.status, on: connection)
        }
        switch declaredBody(pending.headers) {
        case .refused(let refusal):
            return queue(dispatcher.answer(to: refusal), status: refusal.status, on: connection)
        case .length(let length) where length > limit:
            pending.isOversized = true
            guard length > dispatcher.drainLimit || expectsContinue(pending.headers) else { return .YES }
            return queue(dispatcher.handler.respondToOversizedBody(limit: limit), status: 413, on: connection)
        case .length(let length):
            pending.body.reserveCapacity(length)
        case .none, .chunked:
            break
        }
        return .YES
    }
    if let deferred = pending.deferred {
        // Resumed: the answer is in. (Without one, MHD woke us early; stay quiet and it calls again.)
        guard let response = deferred.takeResponse() else { return .YES }
        return queue(response, status: nil, on: connection)
    }

    let chunkSize = uploadDataSize.pointee
    if chunkSize > 0 {
        // A chunked upload can outgrow the limit here (a declared length was checked above): count
        // as the chunks come, and past the limit drop them instead of buffering, up to the drain limit.
        if pending.isOversized {
            pending.drained += chunkSize
        } else if let uploadData {
            if pending.body.count + chunkSize > limit {
                pending.isOversized = true
                pending.drained = pending.body.count + chunkSize
                pending.body = []
            } else {
                pending.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: chunkSize))
            }
        }
        uploadDataSize.pointee = 0
        if pending.isOversized && pending.drained > dispatcher.drainLimit {
            return queue(dispatcher.handler.respondToOversizedBody(limit: limit), status: 413, on: connection)
        }
        return .YES
    }

    if pending.isOversized {
        return queue(dispatcher.handler.respondToOversizedBody(limit: limit), status: 413, on: connection)
    }
    let request = HTTPRequest(
        method: method.map(methodName) ?? "",
        path: url.map { String(cString: $0) } ?? "/",
        query: values(of: .GET_ARGUMENT_KIND, on: connection),
        headers: HTTPHeaders(collected: pending.headers),
        body: pending.body
    )
    pending.body = []
    pending.isCounted = true
    dispatcher.inFlight.begin()
    dispatcher.busy.add(1, ordering: .relaxed)
    defer { dispatcher.busy.subtract(1, ordering: .relaxed) }
    switch dispatcher.handler.reply(to: request) {
    case .now(let response):
        return queue(response, status: nil, on: connection)
    case .later(let begin):
        let suspended = dispatcher.suspended
        let completion = ResponseCompletion(connection: connection) { suspended.remove($0) }
        pending.deferred = completion
        suspended.add(completion)
        MHD_suspend_connection(connection)
        begin(completion)
        return .YES
    }
}

/// MHD calls this for every request the access handler saw, however it ended (also on timeout
/// and daemon stop): the one place to free the request's state.
private func handleCompletion(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, reason: MHD_RequestTerminationCode
) {
    guard let context, let requestContext, let pointer = requestContext.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(pointer).takeRetainedValue()
    requestContext.pointee = nil
    if pending.isCounted { Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().inFlight.end() }
}

/// MHD calls this when a connection is taken in and when it is closed (on the daemon's thread,
/// just before MHD itself counts it gone): the closing ends the connection's share of the limit.
private func handleConnectionNotice(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let context, code == .CONNECTION_NOTIFY_CLOSED else { return }
    Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().openConnections.subtract(1, ordering: .relaxed)
}

/// MHD calls this once the request line is in, before it reads the headers: the place to check
/// the URL's limits. What it returns becomes the request's context; a refusal is answered by the
/// first access call.
///
/// MHD records every query parameter in the connection's memory pool right after this call, and
/// a few thousand of them overflow it, after which it drops the connection unanswered and can
/// crash when the daemon stops. So a refused query is cut off here: MHD has already found the
/// `?` (it ends the path there itself), and a NUL right after it leaves it no parameters to
/// parse. The buffer is MHD's own writable read buffer, handed over as `const` only by type.
private func handleRequestLine(
    context: UnsafeMutableRawPointer?, uri: UnsafePointer<CChar>?, connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    let pending = PendingRequest()
    if let context, let uri {
        let limits = Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().limits
        let length = Int(strlen(uri))
        pending.refusal = limits.refusal(
            forTarget: UnsafeBufferPointer(start: UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self), count: length))
        if pending.refusal != nil, let question = UnsafeBufferPointer(start: uri, count: length).firstIndex(of: 0x3F) {
            UnsafeMutablePointer(mutating: uri)[question + 1] = 0  // within the string: its NUL is at `length`
        }
    }
    return Unmanaged.passRetained(pending).toOpaque()
}

// MARK: - Reading the request

/// The method as a string: the usual two are literals, with no string made and checked per request.
private func methodName(_ method: UnsafePointer<CChar>) -> String {
    if isMethod(method, "POST") { return "POST" }
    if isMethod(method, "GET") { return "GET" }
    return String(cString: method)
}

private func isMethod(_ method: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
    // A StaticString literal ends in a NUL, as a C string does.
    strcmp(method, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
}

/// How the body ends, from the Content-Length and Transfer-Encoding fields (MHD has dropped the
/// values' leading blanks already).
private func declaredBody(_ fields: [(name: String, value: String)]) -> DeclaredBody {
    var lengths: [String] = []
    var codings: [String] = []
    for field in fields {
        if DeclaredBody.isContentLength(field.name) {
            lengths.append(field.value)
        } else if DeclaredBody.isTransferEncoding(field.name) {
            codings.append(field.value)
        }
    }
    return DeclaredBody(contentLengths: lengths, transferEncodings: codings)
}

/// Whether the client waits for `100 Continue` before it sends the body.
private func expectsContinue(_ fields: [(name: String, value: String)]) -> Bool {
    fields.contains { HTTPHeaders.sameName($0.name, "expect") && HTTPHeaders.sameName($0.value, "100-continue") }
}

/// The header fields against their limits (count, then bytes of names and values).
private func headerRefusal(_ fields: [(name: String, value: String)], _ limits: HTTPLimits) -> HTTPRefusal? {
    limits.refusal(forHeaderCount: fields.count, bytes: fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
}

/// Pairs of one kind in arrival order, as MHD decoded them (`%XX`, and `+` as a space in query
/// values). Lengths come from MHD, so a decoded `%00` survives; a key without `=` arrives with a
/// NULL value, which becomes "".
private func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(name: String, value: String)] {
    // Counted first (a walk of MHD's short list), so the array is allocated once, or not at all.
    let count = Int(MHD_get_connection_values_n(connection, kind, nil, nil))
    guard count > 0 else { return [] }
    var pairs: [(name: String, value: String)] = []
    pairs.reserveCapacity(count)
    withUnsafeMutablePointer(to: &pairs) { pairsPointer in
        _ = MHD_get_connection_values_n(connection, kind, collectPair, pairsPointer)
    }
    return pairs
}

private func collectPair(
    context: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let pairs = context?.assumingMemoryBound(to: [(name: String, value: String)].self) else { return .NO }
    // `a=1&&b=2` gives MHD an empty pair between the ampersands; it carries nothing.
    if keySize == 0 && valueSize == 0 { return .YES }
    pairs.pointee.append((name: decodeUTF8(key, keySize), value: decodeUTF8(value, valueSize)))
    return .YES
}

private func decodeUTF8(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
    guard let bytes, count > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
}

// MARK: - Writing the response

/// Hands the response to MHD, which copies the body. `status` overrides the response's own.
private func queue(_ response: HTTPResponse, status: Int?, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { body in
        MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }  // out of memory: MHD closes the connection
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        // MHD computes Content-Length and refuses a hand-set one; it also refuses names or values
        // with CR/LF. Either way the header is left out rather than failing the response.
        // `withCString`, not the implicit conversion, which gave a short string a heap copy.
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(mhdResponse, name, value) } }
    }
    let code = status ?? response.status
    // A final status has three digits and is not 1xx; anything else is a handler bug, sent as 500.
    let validCode = (200...999).contains(code) ? code : 500
    return MHD_queue_response(connection, UInt32(validCode), mhdResponse)
}
