import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One answer as the emulator sent it.
public struct HTTPAnswer: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A header by name, whatever its case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Requests to one emulator over URLSession. Redirects are not followed: the sign-in page answers
/// the app's custom-scheme URL with a 303, which a test reads rather than opens.
struct EmulatorHTTP: Sendable {
    let baseURL: URL
    private let session: URLSession

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        // Outbox waits hold a request up to 60 s; each request sets its own deadline below this.
        configuration.timeoutIntervalForRequest = 120
        configuration.timeoutIntervalForResource = 120
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    /// Sends one request; any status is returned. `query` items whose value is nil are left out.
    func send(
        _ method: String, _ path: String, query: [(String, String?)] = [], json: JSONValue? = nil,
        form: [(String, String)]? = nil, headers: [String: String] = [:], timeout: TimeInterval = 30
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: url(path, query: query), timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder.sortedKeys.encode(json)
        } else if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(form.map { "\(Self.escape($0))=\(Self.escape($1))" }.joined(separator: "&").utf8)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw EmulatorKitError(.unreachable, "\(method) \(request.url?.absoluteString ?? path) failed: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw EmulatorKitError(.unreachable, "\(method) \(path): not an HTTP answer")
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
    }

    /// Sends one request and answers its JSON body; a status other than 2xx throws `EmulatorError`.
    @discardableResult
    func json(
        _ method: String, _ path: String, query: [(String, String?)] = [], body: JSONValue? = nil,
        headers: [String: String] = [:], timeout: TimeInterval = 30
    ) async throws -> JSONValue {
        let answer = try await send(method, path, query: query, json: body ?? (method == "GET" || method == "DELETE" ? nil : [:]),
                                    headers: headers, timeout: timeout)
        let parsed = try? JSONValue(parsing: answer.body)
        guard (200..<300).contains(answer.status) else {
            throw EmulatorError(status: answer.status, body: parsed, rawBody: answer.text, request: "\(method) \(path)")
        }
        guard let parsed else {
            throw EmulatorKitError(.unexpectedAnswer, "\(method) \(path) answered \(answer.status) with no JSON: \(answer.text.prefix(300))")
        }
        return parsed
    }

    func url(_ path: String, query: [(String, String?)] = []) -> URL {
        let items = query.compactMap { name, value in value.map { "\(Self.escape(name))=\(Self.escape($0))" } }
        let text = baseURL.absoluteString + path + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        return URL(string: text)!
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters (so `+` in a phone number
    /// is `%2B`, not a space).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// Stops URLSession from following a redirect, so the 303 itself is the answer. Holds no state,
/// so sharing it between URLSession's threads is safe.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
