import AuthEmulatorTesting
import Foundation
import Testing

/// Game Center through the kit. The fake `gc.apple.com` provider (DESIGN §3, "Game Center") is
/// built on its own branch; until its sources are in this checkout the test is disabled rather
/// than failing against a route that mints a generic OIDC token instead.
@Suite struct GameCenterTests {
    static let providerIsBuilt: Bool = {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/AuthEmulator")
        let files = FileManager.default.enumerator(at: sources.standardized, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            if file.lastPathComponent.contains("GameCenter") { return true }
        }
        return false
    }()

    @Test(.enabled(if: providerIsBuilt, "the fake Game Center provider is not in this checkout yet"))
    func aPlayerSignsInAndComesBack() async throws {
        try await Emulator.withFreshState { emulator in
            let player = try await emulator.providers.mintGameCenter(teamPlayerId: "T:_kit-player", displayName: "Kit Player",
                                                                    bundleId: "com.example.game")
            #expect(player.signature?.isEmpty == false && player.publicKeyUrl?.contains(emulator.host) == true)
            let first = try await emulator.auth.signIn(with: player)
            #expect(first.isNewUser && !first.uid.isEmpty)
            let again = try await emulator.auth.signIn(with: try await emulator.providers.mintGameCenter(
                teamPlayerId: "T:_kit-player", bundleId: "com.example.game"))
            #expect(!again.isNewUser && again.uid == first.uid)
        }
    }
}
