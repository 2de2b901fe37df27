internal import COpenSSL

/// OpenSSL reports failures on a thread-local queue; this turns it into `JOSEError` text.
enum OpenSSLErrorQueue {
    /// Pops every queued error (oldest first) into one line, leaving the queue empty.
    /// The strings name the failing library routine and reason, never key material.
    static func drain() -> String {
        var messages: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while case let code = ERR_get_error(), code != 0 {
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        ERR_clear_error()
        return messages.joined(separator: "; ")
    }

    /// A `JOSEError` saying what we were doing, followed by OpenSSL's own reasons (if any).
    static func error(_ context: String) -> JOSEError {
        let reasons = drain()
        return JOSEError(reasons.isEmpty ? context : "\(context): \(reasons)")
    }

    /// Forgets queued errors after a failure that we report as a plain `false`.
    static func discard() {
        ERR_clear_error()
    }
}

extension OpenSSLErrorQueue {
    /// True when this thread has no pending OpenSSL errors (tests check that failures clean up).
    static var isEmpty: Bool { ERR_peek_error() == 0 }
}
