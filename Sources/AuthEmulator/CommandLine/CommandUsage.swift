/// One command's usage: the flags it knows (what `--help` lists, and what a mistyped flag is
/// matched against), the two lines shown after a mistake, and the whole text `--help` prints.
struct CommandUsage: Sendable {
    struct Flag: Sendable {
        let name: String
        /// What the value looks like (`N`, `FILE`, `lenient|strict`); nil for a flag without one.
        let value: String?
        let help: String
    }

    /// `auth-emulator` or `auth-emulator exec`, as a person types it.
    let command: String
    /// The forms of the command, each after `usage: `.
    let synopsis: [String]
    /// What the command does, before its options.
    let summary: String
    let flags: [Flag]
    /// Said after the options (the subcommands of the top-level command).
    var epilogue = ""

    func flag(_ name: String) -> Flag? { flags.first { $0.name == name } }

    /// The short usage printed after an error: the command's first form and where the rest is.
    var hint: String { "usage: \(synopsis[0])\n`\(command) --help` lists every option" }

    /// The whole usage, for `--help`.
    var full: String {
        var text = "usage: " + synopsis.joined(separator: "\n       ") + "\n\n" + Self.wrapped(summary, indent: 0) + "\n\noptions:\n"
        for flag in flags {
            let spelled = flag.value.map { "\(flag.name) \($0)" } ?? flag.name
            let padded = spelled.count < Self.helpColumn - 3 ? spelled + String(repeating: " ", count: Self.helpColumn - 2 - spelled.count) : spelled + "\n" + String(repeating: " ", count: Self.helpColumn)
            text += "  " + padded + Self.wrapped(flag.help, indent: Self.helpColumn) + "\n"
        }
        return epilogue.isEmpty ? text : text + "\n" + epilogue + "\n"
    }

    private static let helpColumn = 26
    private static let width = 100

    /// `text` in lines of at most `width` columns, every line after the first indented by `indent`.
    private static func wrapped(_ text: String, indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}

extension CommandUsage {
    static let helpFlag = Flag(name: "--help", value: nil, help: "this help (also -h)")

    /// The flags of a serving emulator: `auth-emulator [options]` and `auth-emulator exec [options]`.
    static let serveFlags = [
        Flag(name: "--host", value: "HOST", help: "address to listen on: an IPv4 or IPv6 address, or localhost (default: firebase.json's emulators.auth.host, else 127.0.0.1)"),
        Flag(name: "--port", value: "N", help: "port to listen on, 0 for any free port (default: firebase.json's emulators.auth.port, else 9099; for exec, any free port)"),
        Flag(name: "--project", value: "ID", help: "the project every API key maps to: an id, or an alias from .firebaserc (default: .firebaserc's default project, else demo-project)"),
        Flag(name: "--config", value: "FILE", help: "read this firebase.json (and the .firebaserc beside it) instead of the first firebase.json in this directory or its parents"),
        Flag(name: "--advertise-host", value: "HOST[:PORT]", help: "the address clients should use, in the banner and in links (default: --host, with 0.0.0.0 named 127.0.0.1; in a container, the published address)"),
        Flag(name: "--data", value: "FILE", help: "keep state in this SQLite file across restarts (default: in memory)"),
        Flag(name: "--idp-tokens", value: "lenient|strict", help: "lenient accepts unsigned provider tokens as the official emulator does; strict only tokens the fake providers signed (default lenient)"),
        Flag(name: "--id-tokens", value: "unsigned|signed", help: "unsigned (alg none, what the Admin SDKs in emulator mode need) or signed (RS256, keys at /emulator/v1/securetoken/jwks and …/x509) (default unsigned)"),
        Flag(name: "--import", value: "DIR", help: "load an export (firebase-export-metadata.json, auth_export/accounts*.json, config.json) into the project before serving"),
        Flag(name: "--export-on-exit", value: "DIR", help: "write such an export of the project to DIR on a clean stop (SIGINT/SIGTERM, or the end of exec's command)"),
        Flag(name: "--smtp-port", value: "N", help: "also take the app's own mail over SMTP on this port, 0 for any free port, into the outbox and through Apple's simulated relay (default off)"),
        Flag(name: "--log-level", value: "debug|info|warn|error", help: "how much to log; info logs one line per request (default info; for exec, warn)"),
        Flag(name: "--log-format", value: "text|json", help: "text for people, json (one object a line) for machines (default text)"),
    ]

    static let serve = CommandUsage(
        command: "auth-emulator",
        synopsis: [
            "auth-emulator [--port N] [--project ID] [--data FILE] [options]",
            "auth-emulator exec [options] [--] CMD [ARG…]",
            "auth-emulator mint IDP [--email …] [--hide-email] [--nonce …] [--server HOST:PORT] [options]",
            "auth-emulator export --data FILE --out DIR [--project ID]",
        ],
        summary: "Serves the Firebase Auth API on 127.0.0.1:9099 until SIGINT or SIGTERM, as `firebase emulators:start --only auth` does. In a Firebase project directory it reads firebase.json (emulators.auth.host and port) and .firebaserc (the default project); flags win.",
        flags: serveFlags + [helpFlag, Flag(name: "--version", value: nil, help: "the version, the commit built and the versions of libmicrohttpd, SQLite and OpenSSL")],
        epilogue: """
            commands (each has --help):
              exec      starts an emulator, runs CMD against it, stops it and exits with CMD's status
              mint      asks a running emulator's fake provider for a signed token, printed as JSON
              export    writes the official export layout from a stopped emulator's --data file
            """)

    static let exec = CommandUsage(
        command: "auth-emulator exec",
        synopsis: ["auth-emulator exec [options] [--] CMD [ARG…]"],
        summary: "As `firebase emulators:exec` does: starts a fresh emulator (on any free port unless --port or firebase.json names one), runs CMD once it is ready with FIREBASE_AUTH_EMULATOR_HOST, GCLOUD_PROJECT, GOOGLE_CLOUD_PROJECT, FIREBASE_PROJECT_ID and FIREBASE_CONFIG (unless set) in its environment, and FIREBASE_AUTH_EMULATOR_SMTP with --smtp-port; passes SIGINT, SIGTERM, SIGHUP and SIGQUIT on to it; then stops the emulator (writing --export-on-exit) and exits with CMD's status (128+N when a signal N killed it). A single CMD word runs through /bin/sh -c, as firebase's script does (`exec 'npm test && npm run e2e'`); several run as they are. The banner goes to standard error, so CMD's output stays its own. If the emulator cannot start, CMD never runs and exec exits 1 with the reason.",
        flags: serveFlags + [helpFlag])

    static let mint = CommandUsage(
        command: "auth-emulator mint",
        synopsis: ["auth-emulator mint IDP [--email …] [--hide-email] [--nonce …] [--server HOST:PORT] [options]"],
        summary: "Asks a running emulator's fake provider IDP (apple.com, facebook.com, google.com, yahoo.com, or any provider id) for a signed token and prints the answer as JSON (idToken, postBody ready for signInWithIdp, …).",
        flags: [
            Flag(name: "--email", value: "EMAIL", help: "the token's email"),
            Flag(name: "--hide-email", value: nil, help: "Apple: the token carries a private relay address that forwards to --email"),
            Flag(name: "--name", value: "NAME", help: "the user's name"),
            Flag(name: "--sub", value: "ID", help: "the provider's user id"),
            Flag(name: "--nonce", value: "RAW", help: "the raw nonce; the token carries the provider's form of it (SHA-256 hex for Apple and Facebook)"),
            Flag(name: "--hashed-nonce", value: "VALUE", help: "put in the token as given"),
            Flag(name: "--audience", value: "AUD", help: "the token's aud"),
            Flag(name: "--picture", value: "URL", help: "the user's photo"),
            Flag(name: "--alg", value: "RS256|ES256", help: "the signature (default RS256)"),
            Flag(name: "--server", value: "HOST:PORT", help: "the running emulator (default $FIREBASE_AUTH_EMULATOR_HOST, else 127.0.0.1:9099)"),
            helpFlag,
        ])

    static let export = CommandUsage(
        command: "auth-emulator export",
        synopsis: ["auth-emulator export --data FILE --out DIR [--project ID]"],
        summary: "Writes the official export layout (firebase-export-metadata.json, auth_export/) from a stopped emulator's --data file, for --import or `firebase emulators:start --import`.",
        flags: [
            Flag(name: "--data", value: "FILE", help: "the SQLite file a stopped emulator kept its state in"),
            Flag(name: "--out", value: "DIR", help: "where to write the export (replaced)"),
            Flag(name: "--project", value: "ID", help: "the project to export (default: the only project in the file, else demo-project)"),
            helpFlag,
        ])

    static let all = [serve, exec, mint, export]
}
