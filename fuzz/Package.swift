// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses, kept in a package of their own so the main package's `swift build
// --build-tests` never sees them: they only link with `-sanitize=fuzzer`, which `scripts/fuzz`
// passes (with `-sanitize=address` and `-enable-testing`, for `@testable` access to internal
// parsers). The main package is a path dependency; its modules come in through its
// `AuthEmulator` library product. Each harness is an executable whose `main` hands libFuzzer
// the loop (`LLVMFuzzerRunDriver`), since SwiftPM executables bring their own `main`.
let package = Package(
    name: "auth-emulator-fuzz",
    dependencies: [.package(name: "auth-emulator", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(name: "fuzz-json", dependencies: harness),
        .executableTarget(name: "fuzz-jose", dependencies: harness),
        .executableTarget(name: "fuzz-forms", dependencies: harness),
        .executableTarget(name: "fuzz-http-response", dependencies: harness),
        .executableTarget(name: "fuzz-blocking-answer", dependencies: harness),
        .executableTarget(name: "fuzz-router", dependencies: harness),
        // The SMTP session, the MIME reader and the outbox behind them.
        .executableTarget(name: "fuzz-smtp", dependencies: harness),
    ]
)

var harness: [Target.Dependency] { ["FuzzSupport", .product(name: "AuthEmulator", package: "auth-emulator")] }
