import HTTPServer

/// CORS as the reference emulator answers it (reference §1.6): any origin is reflected, preflights
/// get 204 with the requested headers, and Chrome's private-network preflight is allowed.
enum CORS {
    static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    static func preflightResponse(to request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: 204)
        response.headers.set("Access-Control-Allow-Methods", allowedMethods)
        if let requested = request.headers["access-control-request-headers"] {
            response.headers.set("Access-Control-Allow-Headers", requested)
            response.headers.add("Vary", "Access-Control-Request-Headers")
        }
        return response
    }

    static func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        if request.headers["access-control-request-private-network"] != nil {
            response.headers.set("Access-Control-Allow-Private-Network", "true")
        }
        if let origin = request.headers["origin"] {
            response.headers.set("Access-Control-Allow-Origin", origin)
            response.headers.add("Vary", "Origin")
        }
    }
}
