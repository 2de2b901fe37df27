// swift-tools-version:6.0
import PackageDescription

// Three system C libraries and nothing else: libmicrohttpd (HTTP), SQLite (state), OpenSSL (crypto).
// Each C library is wrapped by exactly one Swift module; C types never leave that module.
// On macOS the libraries come from Homebrew (`brew install libmicrohttpd openssl@3 sqlite pkg-config`).
// openssl@3 and sqlite are keg-only there, so pkg-config finds them only with
// PKG_CONFIG_PATH="$(brew --prefix openssl@3)/lib/pkgconfig:$(brew --prefix sqlite)/lib/pkgconfig";
// scripts/run and scripts/test set it.
let package = Package(
    name: "auth-emulator",
    // Synchronization's Mutex and the standard library's ContinuousClock need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "auth-emulator", targets: ["auth-emulator"]),
        .library(name: "AuthEmulator", targets: ["AuthEmulator"]),
        // The test kit: start or attach to the emulator and drive its own routes from XCTest or
        // Swift Testing (Foundation only; the server binary does not link it).
        .library(name: "AuthEmulatorTesting", targets: ["AuthEmulatorTesting"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // Double rounding in the standard library calls into libm, which nothing else links here.
        .target(name: "JSON", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Sockets", "Threads"]),
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "Threads"]),
        .target(name: "JOSE", dependencies: ["COpenSSL", "JSON"]),
        // The version and the commit built (`--version`, `GET /`); the plugin writes the commit.
        .plugin(name: "BuildCommit", capability: .buildTool(), exclude: ["write-commit.sh", "archived-commit"]),
        .target(name: "BuildInfo", plugins: ["BuildCommit"]),
        // Escaping HTML templates for the pages the emulator serves.
        .target(name: "HTML"),
        .target(
            name: "AuthEmulator",
            dependencies: [
                "HTTPServer", "HTTPClient", "SQLiteStore", "JOSE", "JSON", "HTML", "SMTPServer", "MailMessage", "Sockets",
                "Threads", "BuildInfo",
            ]
        ),
        // The app's own mail: an SMTP listener on POSIX sockets, and the MIME reader for what it receives.
        .target(name: "SMTPServer", dependencies: ["Sockets", "Threads"]),
        // iconv is in glibc on Linux and in its own library on macOS.
        .target(name: "MailMessage", linkerSettings: [.linkedLibrary("iconv", .when(platforms: [.macOS]))]),
        // POSIX threads and a condition lock with monotonic deadlines (what Foundation's Thread and
        // NSCondition would give, without linking Foundation and its ICU data into the binary).
        .target(name: "Threads"),
        // TCP sockets as both platforms spell them: addresses, binding, connecting, sending.
        .target(name: "Sockets"),
        // Outbound HTTP/1.1 (mint --server, blocking functions), on plain sockets.
        .target(name: "HTTPClient", dependencies: ["Sockets"]),
        .executableTarget(name: "auth-emulator", dependencies: ["AuthEmulator", "BuildInfo", "HTTPClient", "JSON"]),
        // A raw HTTP/1.1 client over a real socket, for the test targets only.
        .target(name: "HTTPTestSupport", dependencies: ["Sockets"]),
        // The test kit (its README is beside its sources), and its tests against the real binary,
        // which `swift build` puts beside the test bundle (BuildInfo: the version they compare).
        .target(name: "AuthEmulatorTesting", exclude: ["README.md"]),
        .testTarget(name: "AuthEmulatorTestingTests", dependencies: ["AuthEmulatorTesting", "BuildInfo"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestSupport", "Sockets", "Threads"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "Threads"]),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "JSON"]),
        .testTarget(name: "HTMLTests", dependencies: ["HTML"]),
        .testTarget(name: "SMTPServerTests", dependencies: ["SMTPServer", "Sockets"]),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "MailMessageTests", dependencies: ["MailMessage"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer"]),
        .testTarget(
            name: "AuthEmulatorTests",
            dependencies: ["AuthEmulator", "HTTPServer", "HTTPTestSupport", "JOSE", "JSON", "SQLiteStore", "HTML"]
        ),
    ]
)
