import AuthEmulatorTesting
import BuildInfo
import Foundation
import Testing

/// Starting, attaching and stopping, and how each failure reads. These start binaries of their
/// own, so they run beside the shared emulator's tests.
@Suite struct LifecycleTests {
    @Test func startsOnAFreePortAndStops() async throws {
        let emulator = try await Emulator.start(.init(projectId: "demo-lifecycle"))
        #expect(emulator.version == AuthEmulatorTesting.version)
        #expect(emulator.environment["FIREBASE_AUTH_EMULATOR_HOST"] == emulator.host)
        #expect(emulator.environment["GCLOUD_PROJECT"] == "demo-lifecycle")
        let user = try await emulator.auth.signUp(email: "ada@example.com", password: "secret123")
        #expect(try await emulator.project.users.lookup(uid: user.uid)?.email == "ada@example.com")
        await emulator.stop()
        let unreachable = await #expect(throws: EmulatorKitError.self) { try await emulator.reset() }
        #expect(unreachable?.kind == .unreachable)
    }

    @Test func attachesToARunningEmulator() async throws {
        let started = try await Emulator.start()
        let attached = try await Emulator.attach(host: started.host, projectId: "demo-project")
        _ = try await attached.auth.signUp(email: "bo@example.com", password: "secret123")
        #expect(try await started.project.users.lookup(email: "bo@example.com") != nil)
        await started.stop()
    }

    @Test func aPortInUsePicksAnother() async throws {
        let first = try await Emulator.start()
        let busyPort = Int(first.host.split(separator: ":").last!)!
        let second = try await Emulator.start(.init(port: busyPort))
        #expect(second.host != first.host)
        _ = try await second.clock.now()
        await second.stop()
        await first.stop()
    }

    @Test func aBinaryThatFailsToStartReportsItsStderr() async throws {
        let failure = await #expect(throws: EmulatorKitError.self) {
            try await Emulator.start(.init(arguments: ["--idp-tokens", "sometimes"]))
        }
        #expect(failure?.kind == .startFailed)
        #expect(failure?.description.contains("exited with status") == true)
        #expect(failure?.description.contains("sometimes") == true, "stderr names the bad value: \(failure?.description ?? "")")
    }

    @Test func aMissingBinarySaysWhereItLooked() async throws {
        let failure = await #expect(throws: EmulatorKitError.self) {
            try await Emulator.start(.init(binary: "/nonexistent/auth-emulator"))
        }
        #expect(failure?.kind == .binaryNotFound)
        #expect(failure?.description.contains("/nonexistent/auth-emulator (the path given)") == true)
    }

    @Test func aBinaryOlderThanTheKitIsRefused() async throws {
        // A stand-in binary: prints the banner and serves a status document without a version, as
        // every emulator before 0.1.0 did.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("old-auth-emulator-\(UUID().uuidString)")
        try """
            #!/usr/bin/env python3
            import http.server, json, sys
            class Status(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = json.dumps({"authEmulator": {"ready": True}}).encode()
                    self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args): pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Status)
            print(f"export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:{server.server_port}", flush=True)
            server.serve_forever()
            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        defer { try? FileManager.default.removeItem(at: script) }
        let failure = await #expect(throws: EmulatorKitError.self) {
            try await Emulator.start(.init(binary: script.path))
        }
        #expect(failure?.kind == .versionMismatch)
        #expect(failure?.description.contains("older than AuthEmulatorTesting \(AuthEmulatorTesting.version)") == true)
    }

    /// One release, said in three places: the kit, BuildInfo (which the binary prints), and the
    /// running binary's `GET /` and `--version`.
    @Test func theKitVersionIsTheBinarys() async throws {
        #expect(AuthEmulatorTesting.version == BuildInfo.version)
        let emulator = try await Emulator.shared()
        #expect(emulator.version == AuthEmulatorTesting.version)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Emulator.binaryPath())
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let firstLine = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").first.map(String.init)
        #expect(firstLine == "auth-emulator \(AuthEmulatorTesting.version)")
    }
}
