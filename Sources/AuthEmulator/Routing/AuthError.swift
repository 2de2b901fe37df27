import HTTPServer
import JSON

/// A failure an operation reports to the client, rendered in Google's error shape:
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{...}],"status":"..."}}`.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    public let httpStatus: Int
    /// `CODE` or `CODE : detail`: clients split it at the first colon.
    public let message: String
    /// The `reason` of the single `errors` item.
    public let reason: String
    /// Google's canonical status; the reference emulator leaves it out for plain 400s.
    public let status: String?
    /// Extra members of the `errors` item (`location`, `locationType`).
    public let itemExtras: [String: String]

    public init(httpStatus: Int, message: String, reason: String, status: String?, itemExtras: [String: String] = [:]) {
        self.httpStatus = httpStatus
        self.message = message
        self.reason = reason
        self.status = status
        self.itemExtras = itemExtras
    }

    public var description: String { "\(httpStatus) \(message)" }

    /// A semantic failure: HTTP 400 with the code string as the message (the common case).
    public static func invalid(_ message: String) -> AuthError {
        AuthError(httpStatus: 400, message: message, reason: "invalid", status: nil)
    }

    /// A request body that is not the JSON the operation takes.
    public static func invalidArgument(_ detail: String, reason: String = "invalid") -> AuthError {
        AuthError(httpStatus: 400, message: "Invalid JSON payload received. \(detail)", reason: reason, status: "INVALID_ARGUMENT")
    }

    public static func notImplemented(_ message: String) -> AuthError {
        AuthError(httpStatus: 501, message: message, reason: "unimplemented", status: "NOT_IMPLEMENTED")
    }

    public static let notFound = AuthError(httpStatus: 404, message: "Not Found", reason: "notFound", status: "NOT_FOUND")

    public static func payloadTooLarge(limit: Int) -> AuthError {
        AuthError(
            httpStatus: 413, message: "Request payload is larger than the \(limit)-byte limit.", reason: "payloadTooLarge",
            status: "INVALID_ARGUMENT")
    }

    /// A request the HTTP server refused before routing it (400, 414, 431 or 505).
    public static func refused(_ refusal: HTTPRefusal) -> AuthError {
        let reason =
            switch refusal.status {
            case 400: "badRequest"
            case 414: "uriTooLong"
            case 505: "httpVersionNotSupported"
            default: "requestHeaderFieldsTooLarge"
            }
        return AuthError(httpStatus: refusal.status, message: "INVALID_ARGUMENT : \(refusal)", reason: reason, status: "INVALID_ARGUMENT")
    }

    public static func `internal`(_ message: String) -> AuthError {
        AuthError(httpStatus: 500, message: message, reason: "internal", status: "INTERNAL")
    }

    private static let credentialsHelp =
        "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

    static let invalidCredentials = AuthError(
        httpStatus: 401, message: "Request had invalid authentication credentials. \(credentialsHelp)",
        reason: "authError", status: "UNAUTHENTICATED",
        itemExtras: ["message": "Invalid Credentials", "location": "Authorization", "locationType": "header"])

    static let missingAPIKey = AuthError(
        httpStatus: 403, message: "The request is missing a valid API key.", reason: "forbidden", status: "PERMISSION_DENIED")

    public var json: JSONValue {
        var item: JSONObject = ["message": .string(itemExtras["message"] ?? message), "reason": .string(reason)]
        item["domain"] = "global"
        for key in ["location", "locationType"] {
            if let value = itemExtras[key] { item[key] = .string(value) }
        }
        var error: JSONObject = ["code": .int(Int64(httpStatus)), "message": .string(message), "errors": [.object(item)]]
        error.setIfPresent("status", status.map { .string($0) })
        return ["error": .object(error)]
    }
}
