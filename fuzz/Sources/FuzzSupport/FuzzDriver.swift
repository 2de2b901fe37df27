import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libFuzzer with `body` as the one-input callback, passing the command line through (corpus
/// directories, `-max_total_time=…`, `-runs=…`). A crash, a trap or a sanitizer report ends the
/// run with a reproducer written by libFuzzer; `body` returning means the input was handled.
public enum FuzzDriver {
    // nonisolated(unsafe): set once before libFuzzer starts and only read after, on its one thread.
    nonisolated(unsafe) private static var body: ([UInt8]) -> Void = { _ in }

    public static func run(_ body: @escaping ([UInt8]) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzDriver.body(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
        exit(status)
    }

    /// A property the target must hold; a failure is a finding, reported like a crash.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz property failed: \(message())") }
    }
}

/// Splits one fuzz input into a selector byte and the rest, so one harness can reach several parsers.
public struct FuzzInput {
    public let selector: UInt8
    public let rest: [UInt8]
    public var text: String { String(decoding: rest, as: UTF8.self) }

    public init(_ bytes: [UInt8]) {
        selector = bytes.first ?? 0
        rest = Array(bytes.dropFirst())
    }
}
