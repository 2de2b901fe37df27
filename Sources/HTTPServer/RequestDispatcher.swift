internal import CMicroHTTPD

/// What MHD's threads need to turn a connection's request into a handler call: the handler, the
/// body limit and the in-flight count. It is the daemon's callback context (retained by the daemon
/// owner until `MHD_stop_daemon` returns), so the callbacks never touch `HTTPServer` itself and
/// its deinit cannot race a request.
final class RequestDispatcher: Sendable {
    let handler: any HTTPHandler
    let maximumBodyBytes: Int
    let inFlight = InFlightRequests()
    let suspended = SuspendedRequests()

    init(handler: any HTTPHandler, maximumBodyBytes: Int) {
        self.handler = handler
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The C callback signatures, bound to the functions below.
    static let accessHandler: MHD_AccessHandlerCallback = handleAccess
    static let requestCompleted: MHD_RequestCompletedCallback = handleCompletion
}

/// One request's state between MHD's calls: receiving the body, then suspended while a deferred
/// answer is pending. Created on the first call for a request, freed in the completion callback;
/// only the connection's own thread touches it.
private final class PendingRequest {
    var body: [UInt8] = []
    /// Set once the body is known to exceed the limit; from then on uploads are dropped.
    var isOversized = false
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

    guard let existing = requestContext.pointee else {
        // Headers are in, no body yet. Refuse a declared oversize body now: answering before
        // the body makes MHD skip it (and any `100 Continue`) and close the connection.
        let pending = PendingRequest()
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
        dispatcher.inFlight.begin()
        switch declaredContentLength(connection) {
        case .some(let length) where length > limit:
            pending.isOversized = true
            return queue(dispatcher.handler.respondToOversizedBody(limit: limit), status: 413, on: connection)
        case .some(let length):
            pending.body.reserveCapacity(length)
        case .none:
            break
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    if let deferred = pending.deferred {
        // Resumed: the answer is in. (Without one, MHD woke us early; stay quiet and it calls again.)
        guard let response = deferred.takeResponse() else { return .YES }
        return queue(response, status: nil, on: connection)
    }

    let chunkSize = uploadDataSize.pointee
    if chunkSize > 0 {
        // Only a chunked upload can outgrow the limit here (a declared length was checked above):
        // count as the chunks come, and past the limit drop them instead of buffering.
        if !pending.isOversized, let uploadData {
            if pending.body.count + chunkSize > limit {
                pending.isOversized = true
                pending.body = []
            } else {
                pending.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: chunkSize))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    if pending.isOversized {
        return queue(dispatcher.handler.respondToOversizedBody(limit: limit), status: 413, on: connection)
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "",
        path: url.map { String(cString: $0) } ?? "/",
        query: values(of: .GET_ARGUMENT_KIND, on: connection),
        headers: HTTPHeaders(values(of: .HEADER_KIND, on: connection).map { ($0.name, $0.value) }),
        body: pending.body
    )
    pending.body = []
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
    guard let context, let requestContext, let pending = requestContext.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    requestContext.pointee = nil
    Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().inFlight.end()
}

// MARK: - Reading the request

private func declaredContentLength(_ connection: OpaquePointer) -> Int? {
    guard let raw = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return nil }
    let text = String(cString: raw)  // MHD has trimmed the value already
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return nil  // malformed: MHD answers 400 itself
    }
    return Int(text) ?? Int.max  // all digits but too big for Int is certainly too big
}

/// Pairs of one kind in arrival order, as MHD decoded them (`%XX`, and `+` as a space in query
/// values). Lengths come from MHD, so a decoded `%00` survives; a key without `=` arrives with a
/// NULL value, which becomes "".
private func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
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
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    let code = status ?? response.status
    // A final status has three digits and is not 1xx; anything else is a handler bug, sent as 500.
    let validCode = (200...999).contains(code) ? code : 500
    return MHD_queue_response(connection, UInt32(validCode), mhdResponse)
}
