import AuthEmulator
import BuildInfo

/// The start-up lines. Tests, scripts and docs read the first two (`auth-emulator VERSION
/// listening on http://HOST:PORT for project ID (…)`, `export FIREBASE_AUTH_EMULATOR_HOST=…`)
/// and the `smtp` line: keep their form.
enum Banner {
    static func text(for emulator: AuthEmulator, origins: SettingOrigins, startupMilliseconds: Int64) -> String {
        let configuration = emulator.configuration
        let boundHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // Where it listens, then the address a client can use (never the wildcard 0.0.0.0).
        let address = configuration.clientAddress(port: emulator.port)
        let smtpLine = emulator.smtpAddress.map { "  smtp            \($0) (the app's own mail, into the outbox)\n" } ?? ""
        let signedKeys = configuration.idTokenMode == .signed ? " (keys at http://\(address)/emulator/v1/securetoken/jwks)" : ""
        return """
            auth-emulator \(BuildInfo.version) listening on http://\(boundHost):\(emulator.port) for project \(configuration.projectId) \
            (\(configuration.dataFile.map { "data in \($0)" } ?? "in memory"), ready in \(startupMilliseconds) ms)
            export FIREBASE_AUTH_EMULATOR_HOST=\(address)
              console         http://\(address)/emulator/ui
              outbox          http://\(address)/emulator/v1/projects/\(configuration.projectId)/messages
              fake providers  http://\(address)/emulator/v1/idp/{apple.com,facebook.com,google.com,yahoo.com,…}/tokens
              clock           http://\(address)/emulator/v1/clock
            \(smtpLine)  provider tokens \(configuration.idpTokenMode.rawValue), ID tokens \(configuration.idTokenMode.rawValue)\(signedKeys)
              settings        \(origins.summary(host: configuration.host, port: emulator.port, project: configuration.projectId))

            """
    }
}
