@testable import AuthEmulator
import Foundation
import Testing

/// A start that cannot work says so in the user's terms (the Python suite runs the binary through
/// every case; these are the in-process forms).
@Suite struct StartupTests {
    @Test func aSecondEmulatorOnADataFileIsRefusedAndExportSaysToStopTheFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("startup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/e.db"
        let first = try TestEmulator(dataFile: file)
        let holder = "\(file) is in use by auth-emulator pid \(getpid()) (started "
        let second = #expect(throws: StartupError.self) { try TestEmulator(dataFile: file) }
        #expect(second?.description.hasPrefix(holder) == true)
        #expect(second?.description.hasSuffix("Z); stop it or use another --data file") == true)
        let export = #expect(throws: ImportExportError.self) {
            try ExportCommand(dataFile: file, outDirectory: directory + "/out", projectId: nil).run()
        }
        #expect(export?.description.hasPrefix(holder) == true)
        #expect(export?.description.hasSuffix(
            "Z); stop it (kill \(getpid())), then export; or start it with --export-on-exit DIR to export as it stops") == true)
        #expect(try first.signUp("still@example.com")["localId"] != nil)
    }
}
