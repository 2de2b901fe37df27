internal import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum SecureRandom {
    /// `count` bytes from OpenSSL's CSPRNG. Small requests are served from a buffer of the calling
    /// thread, filled 4 KiB at a time: each `RAND_bytes` call costs a `getpid` system call and a
    /// lock in OpenSSL, and a sign-up asks for random bytes three times. No byte is handed out twice.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition((0...Int(Int32.max)).contains(count), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        guard count <= ThreadRandomBuffer.largestServed else { return fresh(count) }
        return ThreadRandomBuffer.current.take(count)
    }

    fileprivate static func fresh(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        fill(&output)
        return output
    }

    fileprivate static func fill(_ buffer: inout [UInt8]) {
        let status = buffer.withUnsafeMutableBytes { RAND_bytes($0.baseAddress, Int32($0.count)) }
        // RAND_bytes fails only if the system entropy source is broken; continuing would hand out
        // predictable tokens, so stopping is the only safe answer.
        guard status == 1 else { fatalError("RAND_bytes failed: \(OpenSSLErrorQueue.drain())") }
    }
}

/// One thread's unread CSPRNG output. Only its own thread touches it (it lives in a
/// thread-specific slot), so it needs no lock.
private final class ThreadRandomBuffer {
    static let capacity = 4096
    static let largestServed = 256

    private var pool = [UInt8](repeating: 0, count: capacity)
    private var position = capacity

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { buffer in
            guard let buffer else { return }
            Unmanaged<ThreadRandomBuffer>.fromOpaque(buffer).release()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    static var current: ThreadRandomBuffer {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<ThreadRandomBuffer>.fromOpaque(existing).takeUnretainedValue()
        }
        let buffer = ThreadRandomBuffer()
        pthread_setspecific(key, Unmanaged.passRetained(buffer).toOpaque())
        return buffer
    }

    func take(_ count: Int) -> [UInt8] {
        if Self.capacity - position < count {
            SecureRandom.fill(&pool)
            position = 0
        }
        defer { position += count }
        return pool.withUnsafeMutableBufferPointer { pool in
            let taken = UnsafeMutableBufferPointer(rebasing: pool[position..<position + count])
            defer {
                // Wiped once handed out, so the buffer never holds a copy of a token already in use.
                taken.update(repeating: 0)
            }
            return Array(taken)
        }
    }
}
