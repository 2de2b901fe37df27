import Foundation
#if canImport(Darwin)
import Darwin  // dladdr
#endif

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

    /// The folder holding the test bundle (`.build/<triple>/debug`). On Linux the test runner is
    /// the bundle's own executable (`….xctest`); on macOS `xctest` or Xcode loads a `….xctest`
    /// folder, and the image holding this code (the kit is linked into the bundle) is inside it.
    private static func testBuildFolder() -> URL? {
        #if canImport(Darwin)
        var image = Dl_info()
        guard dladdr(#dsohandle, &image) != 0, let name = image.dli_fname else { return nil }
        var path = URL(fileURLWithPath: String(cString: name))
        #else
        guard var path = Bundle.main.executableURL else { return nil }
        #endif
        path.resolveSymlinksInPath()
        let file = path
        while path.pathComponents.count > 1 {
            if path.pathExtension == "xctest" { return path.deletingLastPathComponent() }
            path.deleteLastPathComponent()
        }
        return file.deletingLastPathComponent()
    }

    private static func notFound(_ tried: [String]) -> EmulatorKitError {
        EmulatorKitError(.binaryNotFound, """
            no auth-emulator binary found; tried \(tried.joined(separator: ", ")). \
            Build it with `swift build --product auth-emulator`, or set AUTH_EMULATOR_BIN to its path.
            """)
    }
}
