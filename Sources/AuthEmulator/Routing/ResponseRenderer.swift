import HTML
import HTTPServer
import JSON
import SQLiteStore

/// Turns an operation's result, or its failure in the operation's error style, into HTTP.
enum ResponseRenderer {
    static func render(_ result: OperationResult, errorsAs style: ErrorStyle) -> HTTPResponse {
        switch result {
        case .json(let object, let status):
            return json(object, status: status)
        case .encodedJSON(let body, let status):
            return json(encoded: body, status: status)
        case .html(let page, let status):
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/html; charset=utf-8")
            // Pages are only ever built from escaped templates; this keeps a stray one inert too.
            headers.set("X-Content-Type-Options", "nosniff")
            headers.set("Cache-Control", "no-store")
            return HTTPResponse(status: status, headers: headers, body: Array(page.markup.utf8))
        case .redirect(let location):
            var headers = HTTPHeaders()
            headers.set("Location", location)
            headers.set("Cache-Control", "no-store")
            return HTTPResponse(status: 303, headers: headers)
        case .download(let bytes, let contentType, let fileName):
            var headers = HTTPHeaders()
            headers.set("Content-Type", contentType)
            headers.set("Content-Disposition", "attachment; filename=\"\(fileName)\"")
            headers.set("X-Content-Type-Options", "nosniff")
            headers.set("Cache-Control", "no-store")
            return HTTPResponse(status: 200, headers: headers, body: bytes)
        case .deferred:
            // A deferred answer completes with a final result; one that defers again is a bug.
            return render(AuthError.internal("INTERNAL_ERROR"), as: style)
        }
    }

    /// Any failure: an `AuthError` as the operation's style says; anything else is logged and
    /// answered `INTERNAL_ERROR`, so SQL and Swift error text never reach the client.
    static func render(failure: any Error, as style: ErrorStyle, request: HTTPRequest, logger: Logger) -> HTTPResponse {
        if let error = failure as? AuthError { return render(error, as: style) }
        logger.log(.error, "\(request.method) \(request.path) failed: \(failure)")
        if let storage = failure as? SQLiteError, let error = StorageFailure.error(for: storage) { return render(error, as: style) }
        return render(AuthError.internal("INTERNAL_ERROR"), as: style)
    }

    static func render(_ error: AuthError, as style: ErrorStyle) -> HTTPResponse {
        switch style {
        case .google:
            guard case .object(let body) = error.json else { return HTTPResponse(status: error.httpStatus) }
            return json(body, status: error.httpStatus)
        case .emulator:
            return json(["authEmulator": ["error": .string(error.message)]], status: error.httpStatus)
        case .html:
            let page = HTML.page(
                title: "Auth Emulator error",
                body: "<h1>Auth Emulator</h1><p role=\"alert\">\(error.message)</p>")
            return render(.html(page, status: error.httpStatus), errorsAs: .html)
        case .graph:
            // Graph reports a bad token as OAuthException 190 and other bad requests as 100.
            let code: Int64 = error.reason == GraphError.invalidTokenReason ? 190 : 100
            let body: JSONObject = [
                "error": [
                    "message": .string(error.message), "type": "OAuthException", "code": .int(code),
                    "fbtrace_id": "AuthEmulatorFakeGraph",
                ]
            ]
            return json(body, status: error.httpStatus)
        }
    }

    private static func json(_ object: JSONObject, status: Int) -> HTTPResponse {
        json(encoded: JSONValue.object(object).prettyEncoded(), status: status)
    }

    private static func json(encoded body: [UInt8], status: Int) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}

extension ResponseRenderer {
    /// An error as a result, for deferred answers that end in one (the Google shape).
    static func failure(_ error: AuthError) -> OperationResult {
        guard case .object(let body) = error.json else { return .json([:], status: error.httpStatus) }
        return .json(body, status: error.httpStatus)
    }
}

/// Failures of the fake Graph API, in Graph's words.
enum GraphError {
    static let invalidTokenReason = "graphInvalidToken"

    static let invalidToken = AuthError(
        httpStatus: 400, message: "Invalid OAuth access token - Cannot parse access token",
        reason: invalidTokenReason, status: nil)
}
