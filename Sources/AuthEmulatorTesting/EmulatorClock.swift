import Foundation

/// The emulator clock: expiry of codes and tokens follows it. One per emulator, shared by its
/// projects; `Emulator.reset()` also returns it to real time.
public struct EmulatorClock: Sendable {
    public let emulator: Emulator

    /// The emulator's time.
    public func now() async throws -> Date {
        try Self.date(try await emulator.http.json("GET", "/emulator/v1/clock"))
    }

    /// Moves the clock forward; answers the new time.
    @discardableResult
    public func advance(by seconds: Int) async throws -> Date {
        try Self.date(try await emulator.http.json("POST", "/emulator/v1/clock:advance", body: ["seconds": .number(Double(seconds))]))
    }

    /// Sets the clock (not earlier than real time); answers the new time.
    @discardableResult
    public func set(to date: Date) async throws -> Date {
        try Self.date(try await emulator.http.json("POST", "/emulator/v1/clock:set", body: ["time": .string(Self.rfc3339(date))]))
    }

    /// Back to real time.
    public func reset() async throws {
        try await emulator.http.json("POST", "/emulator/v1/clock:reset")
    }

    /// Runs `body` with the clock `seconds` ahead, then resets it, whether `body` threw or not.
    public func advanced<Result>(by seconds: Int, _ body: () async throws -> Result) async throws -> Result {
        try await advance(by: seconds)
        return try await finishing(body, with: reset)
    }

    static func date(_ answer: JSONValue) throws -> Date {
        guard let text = answer["now"]?.stringValue, let date = parse(text) else {
            throw EmulatorKitError(.unexpectedAnswer, "the clock answered no RFC 3339 `now`: \(answer)")
        }
        return date
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
