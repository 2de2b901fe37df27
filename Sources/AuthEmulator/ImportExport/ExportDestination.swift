#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif

/// Where `--export-on-exit` will write, checked at the start: an export that can only fail at the
/// stop would lose a whole session's state (in memory, the only copy).
enum ExportDestination {
    /// Throws when no export could be written at `directory`: it is a file (the export is a
    /// folder, and would replace it), or the nearest folder that exists on its path is not one the
    /// emulator can write in (the folders missing below it are made as the export is written).
    static func check(_ directory: String) throws {
        let flag = "--export-on-exit \(directory)"
        let files = FileManager.default
        if files.fileExists(atPath: directory) {
            guard ImportExportFile.isDirectory(directory) else {
                throw StartupError("\(flag) is a file; give a folder (an export is a folder, which replaces what is there)")
            }
        }
        var existing = URL(fileURLWithPath: directory).standardizedFileURL.deletingLastPathComponent()
        while !files.fileExists(atPath: existing.path) && existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        guard ImportExportFile.isDirectory(existing.path) else {
            throw StartupError("\(flag): \(existing.path) is a file, not a folder; give a path whose folders exist or can be made")
        }
        guard files.isWritableFile(atPath: existing.path) else {
            throw StartupError("\(flag): the folder \(existing.path) cannot be written; give a folder you can write")
        }
    }
}
