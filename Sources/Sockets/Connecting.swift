#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketAddress {
    /// A new TCP socket connected to this address, whose reads and writes give up after
    /// `timeoutSeconds` without progress. The caller closes it.
    public func connect(timeoutSeconds: Int) throws(SocketError) -> Int32 {
        let descriptor = SystemSocket.openStream(family: family)
        guard descriptor >= 0 else { throw SocketError.last() }
        SystemSocket.setTimeouts(descriptor, seconds: timeoutSeconds)
        guard withSocketAddress({ SystemSocket.connectTo(descriptor, $0, length) }) == 0 else {
            let failure = SocketError.last()
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    /// The first line a server here sends unasked (an SMTP server's `220 …` greeting), without its
    /// line end; nil when nothing accepts the connection or no whole line comes within `timeoutSeconds`.
    public func greeting(timeoutSeconds: Int) -> String? {
        guard let descriptor = try? connect(timeoutSeconds: timeoutSeconds) else { return nil }
        defer { close(descriptor) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while received.count < 4096 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            received += chunk[..<count]
            if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: received[..<end], as: UTF8.self).trimmingSuffix("\r")
            }
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
