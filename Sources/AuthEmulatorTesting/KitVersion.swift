/// The kit's version: the emulator release it belongs to. A binary older than this is refused
/// when the kit starts or attaches to it. It is written here, not read from BuildInfo, so that a
/// package using the kit builds no BuildInfo and runs none of its build plugin (which Xcode asks
/// a user to trust); the kit's tests check that it equals `BuildInfo.version` and the binary's
/// `--version` and `GET /`.
public enum AuthEmulatorTesting {
    public static let version = "0.1.0"
}

/// `MAJOR.MINOR.PATCH`, compared numerically (a `-suffix` is ignored).
struct ReleaseVersion: Comparable, CustomStringConvertible {
    let parts: [Int]
    let description: String

    init?(_ text: String) {
        let core = text.split(separator: "-", maxSplits: 1).first.map(String.init) ?? text
        let numbers = core.split(separator: ".").map { Int($0) }
        guard numbers.count == 3, numbers.allSatisfy({ $0 != nil }) else { return nil }
        parts = numbers.compactMap { $0 }
        description = text
    }

    static func < (left: ReleaseVersion, right: ReleaseVersion) -> Bool { left.parts.lexicographicallyPrecedes(right.parts) }
    static func == (left: ReleaseVersion, right: ReleaseVersion) -> Bool { left.parts == right.parts }
}
