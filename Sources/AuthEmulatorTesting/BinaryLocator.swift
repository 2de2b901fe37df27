import Foundation

/// Finds the `auth-emulator` binary. In order: the path a test names, `AUTH_EMULATOR_BIN`, the
/// build folder of the running tests (where `swift build` puts the package's executable beside
/// the test bundle), then each folder of `PATH`.
enum BinaryLocator {
    static let name = "auth-emulator"

    static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        var tried: [String] = []
        func usable(_ path: String, _ origin: String) -> Bool {
            tried.append("\(path) (\(origin))")
            return FileManager.default.isExecutableFile(atPath: path)
        }
        if let explicit {
            // A path a test named is the only one tried: finding another binary would hide its mistake.
            if usable(explicit, "the path given") { return explicit }
            throw notFound(tried)
        }
        if let variable = environment["AUTH_EMULATOR_BIN"], !variable.isEmpty {
            if usable(variable, "AUTH_EMULATOR_BIN") { return variable }
            throw notFound(tried)
        }
        if let folder = testBuildFolder() {
            let beside = folder.appendingPathComponent(name).path
            if usable(beside, "beside the test bundle") { return beside }
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        tried.append("each folder of PATH")
        throw notFound(tried)
    }

    /// The folder holding the test bundle (`.build/<triple>/debug`): on Linux the test runner is
    /// itself the bundle's executable; on macOS `xctest` or Xcode loads the `.xctest` bundle.
    private static func testBuildFolder() -> URL? {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        guard let executable = Bundle.main.executableURL else { return nil }
        return executable.deletingLastPathComponent()
    }

    private static func notFound(_ tried: [String]) -> EmulatorKitError {
        EmulatorKitError(.binaryNotFound, """
            no auth-emulator binary found; tried \(tried.joined(separator: ", ")). \
            Build it with `swift build --product auth-emulator`, or set AUTH_EMULATOR_BIN to its path.
            """)
    }
}
