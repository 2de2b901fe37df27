#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a database path, looked at before SQLite opens it (and would create it, or write a
/// journal beside it), so that a bad path fails in the file's terms and leaves nothing behind.
enum DatabaseFileCheck {
    /// The first 16 bytes of every SQLite database file.
    private static let header = Array("SQLite format 3\0".utf8)

    /// Throws the problem with `path`; returns when it is an SQLite file, an empty file or a new
    /// file in a folder that exists.
    static func check(_ path: String) throws(DatabaseFileError) {
        func fail(_ problem: DatabaseFileError.Problem) -> DatabaseFileError { DatabaseFileError(path: path, problem: problem) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let failure = errno
            let folder = folder(of: path)
            if failure == ENOTDIR { throw fail(.notAFolder(folder)) }
            guard failure == ENOENT else { throw fail(.unreadable(String(cString: strerror(failure)))) }
            var folderInfo = stat()
            if stat(folder, &folderInfo) != 0 { throw fail(.missingFolder(folder)) }
            return  // a new file: SQLite creates it
        }
        if isFolder(info) { throw fail(.isAFolder) }
        // Not blocking: a FIFO would otherwise hold the open until something writes to it.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw fail(.notADatabase) }
        if info.st_size == 0 { return }  // SQLite takes an empty file as a new database
        var start = [UInt8](repeating: 0, count: header.count)
        let count = start.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == header.count, start == header else { throw fail(.notADatabase) }
    }

    /// The folder `path` names a file in: what comes before its last `/`, else the current one.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func isFolder(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }
}
