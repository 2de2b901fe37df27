import JSON

extension OperationResult {
    /// The error message of a result that answers 4xx or 5xx without throwing (a deferred answer
    /// that ends in an error, the action page's JSON failures), for the request's log line.
    var refusalMessage: String? {
        guard case .json(let object, let status) = self, status >= 400 else { return nil }
        if let message = object["error"]?["message"]?.stringValue { return message }
        if let message = object["authEmulator"]?["error"]?.stringValue { return message }
        return object["error"]?.stringValue
    }
}
