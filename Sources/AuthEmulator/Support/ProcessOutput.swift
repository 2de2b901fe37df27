#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error, written whole (retrying short writes and interruptions)
/// with one `write` call when the kernel takes it all, so lines from different threads do not mix.
public enum ProcessOutput {
    case standardOutput, standardError

    public func write(_ text: String) {
        let descriptor: Int32 = self == .standardOutput ? 1 : 2
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = systemWrite(descriptor, next, left)
                if written > 0 {
                    next += written
                    left -= written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe or a full disk: nothing better to do with a log line
                }
            }
        }
    }
}

/// The C library's `write`, which `ProcessOutput.write` would otherwise shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
