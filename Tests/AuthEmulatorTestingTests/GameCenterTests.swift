import AuthEmulatorTesting
import Foundation
import Testing

/// Game Center through the kit: the fake `gc.apple.com` provider (DESIGN §3, "Game Center").
@Suite struct GameCenterTests {
    @Test
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
