import HTTPClient
import JSON

/// POSTs one event to its function, with a bounded deadline, and reads the answer.
enum BlockingFunctionClient {
    /// Seconds without progress before the call fails: production gives blocking functions 7 s
    /// (the reference emulator waits 60 s, longer than most test clients wait for their answer).
    static let deadlineSeconds = 7

    static func call(_ event: BlockingEvent) throws(AuthError) -> BlockingUpdate {
        let uri = event.functionUri
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.send(
                "POST", uri, headers: [("Content-Type", "application/json")], body: event.requestBody,
                timeoutSeconds: deadlineSeconds)
        } catch {
            let text = "\(error)"
            if text.contains("timed out") { throw BlockingFailure.transport("Deadline exceeded making request to \(uri).") }
            throw BlockingFailure.transport("Failed to make request to \(uri).")
        }
        guard (200..<300).contains(response.status) else {
            let body = String(decoding: response.body, as: UTF8.self)
            throw BlockingFailure.response("HTTP request to \(uri) returned HTTP error \(response.status): \(body)")
        }
        return try BlockingUpdate.parse(response.body, trigger: event.trigger)
    }
}
