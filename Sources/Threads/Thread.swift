#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ThreadError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// A POSIX thread running one closure: joined with `join()`, or detached with `detach()` when
/// nobody waits for it (its resources are then freed as it ends).
public final class PosixThread {
    #if canImport(Darwin)
    private var handle: pthread_t?
    #else
    private var handle = pthread_t()
    #endif

    public init(_ body: @escaping () -> Void) throws(ThreadError) {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        let created = pthread_create(&handle, nil, { context in
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        #else
        let created = pthread_create(&handle, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        #endif
        guard created == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw ThreadError(description: "could not start a thread: \(String(cString: strerror(created)))")
        }
    }

    /// Waits for the thread to end. Call it at most once, and not after `detach()`.
    public func join() {
        #if canImport(Darwin)
        if let handle { pthread_join(handle, nil) }
        #else
        pthread_join(handle, nil)
        #endif
    }

    /// Lets the thread end on its own. Call it at most once, and not after `join()`.
    public func detach() {
        #if canImport(Darwin)
        if let handle { pthread_detach(handle) }
        #else
        pthread_detach(handle)
        #endif
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
