import JSON

/// `auth-emulator mint IDP …`: asks a running emulator's fake provider for a token (DESIGN §3).
public struct MintCommand: Equatable, Sendable {
    public let providerId: String
    /// `http://host:port` of the running emulator.
    public let server: String
    /// The mint route's body, as `POST /emulator/v1/idp/{idp}/tokens` takes it.
    public let body: [String: String]
    public let hideEmail: Bool

    public var url: String { "\(server)/emulator/v1/idp/\(URIComponent.encode(providerId))/tokens" }

    /// The body as JSON text.
    public var jsonBody: String {
        var object = JSONObject()
        for key in body.keys.sorted() { object[key] = .string(body[key]!) }
        if hideEmail { object["hideEmail"] = true }
        return object.compactString
    }

    /// The flags that set a body member, and its name.
    private static let bodyMembers = [
        "--email": "email", "--nonce": "nonce", "--hashed-nonce": "hashedNonce", "--name": "name", "--sub": "sub", "--audience": "audience",
        "--picture": "picture", "--alg": "alg",
    ]

    static func parse(_ arguments: [String], environment: [String: String]) throws(CommandLineOptions.UsageError) -> CommandLineOptions.Outcome {
        var reader = ArgumentReader(arguments, usage: .mint)
        var providerId: String?
        var server = environment["FIREBASE_AUTH_EMULATOR_HOST"].map { "http://\($0)" } ?? "http://127.0.0.1:9099"
        var body: [String: String] = [:]
        var hideEmail = false
        while let argument = try reader.next() {
            switch argument {
            case .flag("--help"): return .help(CommandUsage.mint.full)
            case .flag("--hide-email"): hideEmail = true
            case .flag("--server"):
                server = try reader.value(of: "--server")
                server = server.hasPrefix("http://") ? server : "http://\(server)"
                while server.hasSuffix("/") { server.removeLast() }
            case .flag(let flag):
                body[bodyMembers[flag]!] = try reader.value(of: flag)
            case .word(let word) where providerId == nil:
                providerId = word
            case .word(let word):
                throw reader.error("mint takes one provider id, not \(providerId!) and \(word)")
            case .separator:
                throw reader.error("mint takes no --")
            }
        }
        guard let providerId else { throw reader.error("mint needs a provider id, e.g. auth-emulator mint apple.com") }
        return .mint(MintCommand(providerId: providerId, server: server, body: body, hideEmail: hideEmail))
    }
}
