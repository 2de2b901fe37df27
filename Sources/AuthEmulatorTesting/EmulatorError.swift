/// The emulator refused a request: its Google-style error, typed. `code` is the part a test
/// compares (`MISSING_OR_INVALID_NONCE`), `message` the whole text (`CODE : detail`).
public struct EmulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status (400, 404, …).
    public let status: Int
    /// The error code: `error.message` up to ` : `, e.g. `INVALID_IDP_RESPONSE`.
    public let code: String
    /// The whole `error.message`, e.g. `INVALID_IDP_RESPONSE : The id_token expired at …`.
    public let message: String
    /// `error.status` (`INVALID_ARGUMENT`, `NOT_FOUND`, …) when the answer had one.
    public let statusName: String?
    /// What was asked, e.g. `POST /identitytoolkit.googleapis.com/v1/accounts:signInWithIdp`.
    public let request: String

    /// The text after ` : ` in `message`, when there is one.
    public var detail: String? {
        guard let range = message.range(of: " : ") else { return nil }
        return String(message[range.upperBound...])
    }

    public init(status: Int, message: String, statusName: String? = nil, request: String) {
        self.status = status
        self.message = message
        self.statusName = statusName
        self.request = request
        let head = message.range(of: " : ").map { String(message[..<$0.lowerBound]) } ?? message
        // `TOO_MANY_ATTEMPTS_TRY_LATER` and friends are one word; a sentence has no code.
        code = head.contains(" ") ? "" : head
    }

    /// Reads a refusal in any of the shapes the emulator answers with: Google's
    /// `{"error":{"code","message","status"}}`, the official emulator's `{"authEmulator":{"error"}}`,
    /// and the fake Graph API's `{"error":{"message","type":"OAuthException"}}`.
    init(status: Int, body: JSONValue?, rawBody: String, request: String) {
        if let error = body?["error"], let message = error["message"]?.stringValue {
            self.init(status: status, message: message, statusName: error["status"]?.stringValue ?? error["type"]?.stringValue,
                      request: request)
        } else if let message = body?["authEmulator"]?["error"]?.stringValue {
            self.init(status: status, message: message, request: request)
        } else {
            self.init(status: status, message: rawBody.isEmpty ? "HTTP \(status)" : String(rawBody.prefix(500)), request: request)
        }
    }

    public var description: String { "\(request) answered \(status): \(message)" }
}

/// The kit could not do what a test asked, for a reason other than an emulator's refusal: no
/// binary, a binary that would not start or is older than the kit, a wait whose deadline passed.
/// Each says what it tried and what it saw.
public struct EmulatorKitError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No binary at the explicit path, `AUTH_EMULATOR_BIN` or on `PATH`.
        case binaryNotFound
        /// The binary exited or did not get ready; the description carries its stderr.
        case startFailed
        /// The binary's version is older than the kit's.
        case versionMismatch
        /// The emulator could not be reached, or answered something that is not its API.
        case unreachable
        /// A wait's deadline passed; the description says what arrived instead.
        case timedOut
        /// The answer did not have the shape the kit expects.
        case unexpectedAnswer
        /// A link or argument the kit was handed is not one it can use.
        case invalidArgument
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
