import HTTPClient
import JSON
import Sockets

/// A port the emulator could not bind because something else has it: who answers there, found by
/// asking, so the message can say whether it is another auth-emulator and what to do.
enum BusyPort {
    /// One try, briefly: a program that takes the connection and says nothing must not hold up the error.
    private static let probeSeconds = 2

    /// For `--port`: the server could not bind `host` (as configured) on `port`.
    static func http(host: String, port: UInt16, reachedAt localHost: String) -> StartupError {
        let who = switch httpOccupant(host: localHost, port: port) {
        case .ours: "another auth-emulator is running there"
        case .firebaseTools: "a Firebase Auth emulator (firebase emulators:start) is running there"
        case .other: "the port is in use by another program (no auth emulator answers there)"
        }
        return StartupError("could not listen on \(shown(host, port)): \(who); stop it, or start this one on a free port with --port 0")
    }

    /// For `--smtp-port`, as `http` for `--port`.
    static func smtp(host: String, port: UInt16, reachedAt localHost: String) -> StartupError {
        let greeting = SocketAddress(host: localHost, port: port)?.greeting(timeoutSeconds: probeSeconds)
        let who: String
        if let greeting, greeting.hasPrefix("220 "), greeting.contains("auth-emulator") {
            who = "another auth-emulator's SMTP listener is running there"
        } else if let greeting, greeting.hasPrefix("220") {
            who = "another SMTP server is running there (it greets with \"\(greeting.prefix(80))\")"
        } else {
            who = "the port is in use by another program (no SMTP server answers there)"
        }
        return StartupError(
            "could not listen for SMTP on \(shown(host, port)): \(who); stop it, or start this one with --smtp-port 0 for a free port")
    }

    private static func shown(_ host: String, _ port: UInt16) -> String {
        SocketAddress(host: host, port: port)?.description ?? "\(host):\(port)"
    }

    private enum Occupant { case ours, firebaseTools, other }

    /// Both emulators answer `GET /` with `authEmulator`; only ours has a clock route. A program
    /// that does not answer `GET /` is not asked again, so it costs one probe's wait at most.
    private static func httpOccupant(host: String, port: UInt16) -> Occupant {
        guard let address = SocketAddress(host: host, port: port) else { return .other }
        func answer(_ path: String) -> JSONValue? {
            guard let response = try? HTTPClient.send("GET", "http://\(address)\(path)", timeoutSeconds: probeSeconds),
                response.status == 200
            else { return nil }
            return try? JSONValue(parsing: response.body)
        }
        guard answer("/")?["authEmulator"] != nil else { return .other }
        return answer("/emulator/v1/clock")?["now"]?.stringValue != nil ? .ours : .firebaseTools
    }
}
