import JSON

public enum LogLevel: Int, Sendable, Comparable {
    case debug, info, warning, error

    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    var label: String {
        switch self {
        case .debug: return "DEBUG"
        case .info: return "INFO"
        case .warning: return "WARN"
        case .error: return "ERROR"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `--log-format`: lines for people, or one JSON object a line for machines.
public enum LogFormat: String, Sendable, Equatable {
    case text, json
}

/// Line-oriented log on standard error. One lock keeps lines from different HTTP threads whole.
public final class Logger: Sendable {
    public let minimumLevel: LogLevel
    public let format: LogFormat
    private let sink: Locked<@Sendable (String) -> Void>

    public init(
        minimumLevel: LogLevel = .info, format: LogFormat = .text,
        sink: @escaping @Sendable (String) -> Void = Logger.standardError
    ) {
        self.minimumLevel = minimumLevel
        self.format = format
        self.sink = Locked(sink)
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        let line: String
        switch format {
        case .text:
            line = "\(level.label) \(message())\n"
        case .json:
            let entry: JSONObject = [
                "time": .string(SystemTime().now().rfc3339), "level": .string(level.label.lowercased()),
                "message": .string(message()),
            ]
            line = entry.compactString + "\n"
        }
        sink.withLock { $0(line) }
    }

    /// A line with fields for machines: text logs show only `message` (which says the same), JSON
    /// logs carry the fields beside it. `fields` is built only for JSON.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, fields: () -> JSONObject) {
        guard level >= minimumLevel else { return }
        guard format == .json else { return log(level, message()) }
        var entry: JSONObject = [
            "time": .string(SystemTime().now().rfc3339), "level": .string(level.label.lowercased()),
            "message": .string(message()),
        ]
        for member in fields().members { entry[member.key] = member.value }
        sink.withLock { $0(entry.compactString + "\n") }
    }

    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }

    /// Each line goes to standard error in one `write` of the string's own bytes: at the default
    /// level every request logs a line, and `FileHandle.write(Data(…))` had built a `Data` and gone
    /// through Foundation for each (a `GET /`'s logging 7.8k -> 4.3k instructions). A line that
    /// cannot be written is dropped, as a log must not stop the server.
    public static let standardError: @Sendable (String) -> Void = { line in ProcessOutput.standardError.write(line) }

    /// A logger that drops everything (tests that do not look at logs).
    public static var silent: Logger { Logger(minimumLevel: .error, sink: { _ in }) }
}
