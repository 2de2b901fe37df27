internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A refusal the screener sends itself, written as libmicrohttpd writes its answers: the status
/// line with libmicrohttpd's reason phrase, `Date`, `Connection: close`, the handler's headers and
/// `Content-Length`, then the body. One status line, and the connection closes after it.
enum RefusalMessage {
    static func bytes(of response: HTTPResponse, status: Int) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\nDate: \(httpDate())\r\nConnection: close\r\n"
        for (name, value) in response.headers {
            // As libmicrohttpd does: it sets these itself, and a CR or LF would split the header.
            let lowered = name.lowercased()
            guard lowered != "content-length", lowered != "connection", lowered != "date",
                !"\(name)\(value)".utf8.contains(where: { $0 == 13 || $0 == 10 })
            else { continue }
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        return Array(head.utf8) + response.body
    }

    private static func reasonPhrase(_ status: Int) -> String {
        let length = MHD_get_reason_phrase_len_for(UInt32(clamping: status))
        guard length > 0, let phrase = MHD_get_reason_phrase_for(UInt32(clamping: status)) else { return "Non-Standard Status" }
        return String(cString: phrase)
    }

    /// Now as an IMF-fixdate (`Tue, 01 Dec 2026 23:41:21 GMT`), with English names whatever the locale.
    private static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday) % 7]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
