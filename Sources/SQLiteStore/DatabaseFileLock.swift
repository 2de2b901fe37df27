#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One owner per database file: an exclusive lock, held from before SQLite opens the file until
/// the database object goes (in a server, the process's life), so a second process on the same
/// file is refused with who holds it instead of running beside the first. Two processes on one
/// file each keep state of their own beside SQLite, so neither could be right.
///
/// The lock is `flock(2)` on a file of its own beside the database, `<database>.lock`:
/// - Not on the database itself. SQLite locks the database (and its `-shm`) with POSIX `fcntl`
///   record locks, which belong to the process: closing *any* descriptor of that file drops them
///   all, and SQLite opens and closes such descriptors as connections come and go, so a record
///   lock of ours there would vanish unseen. And on macOS `flock` and `fcntl` locks on one file
///   conflict, so an `flock` on the database would block SQLite's own locks in this process.
/// - `flock`, not `fcntl`, on the lock file: it belongs to the open file, so a second database
///   object in the same process is refused too; both platforms have it; the kernel drops it when
///   the process ends, however it ends (kill -9 included).
/// - Opened close-on-exec, so a program the emulator starts cannot inherit the lock and keep it.
///
/// The file holds `pid N started T` for the refusal message. It is left in place when the lock is
/// released (as SQLite leaves `-wal` and `-shm`): removing it would let one process lock the
/// removed file while another locks its replacement. Only a start that fails removes a lock file
/// it created, and a lock taken on a file that has since gone from its path is taken again.
public final class DatabaseFileLock: Sendable {
    /// Who holds the lock, as the lock file says.
    public struct Holder: Equatable, Sendable {
        public let processId: Int32
        /// When it took the lock, RFC 3339 in UTC.
        public let started: String
    }

    /// Where the lock file of the database at `databasePath` is.
    public static func path(of databasePath: String) -> String { databasePath + ".lock" }

    private let descriptor: Int32
    private let path: String
    private let created: Bool

    /// Takes the lock of the database at `databasePath`; nil when no lock file can be made or
    /// opened because the folder is read-only (then SQLite cannot write there either, and nothing
    /// is guarded). Throws `.inUse` when another holder has it.
    static func acquire(databasePath: String) throws(DatabaseFileError) -> DatabaseFileLock? {
        let path = path(of: databasePath)
        func fail(_ problem: DatabaseFileError.Problem) -> DatabaseFileError { DatabaseFileError(path: databasePath, problem: problem) }
        // A few tries: each is lost only to a failing start that removed the file between our open and lock.
        for _ in 0..<8 {
            var created = true
            var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor < 0 && errno == EEXIST {
                created = false
                descriptor = open(path, O_RDWR | O_CLOEXEC)
            }
            if descriptor < 0 && [EACCES, EROFS, EPERM].contains(errno) {
                let reason = String(cString: strerror(errno))
                created = false
                // A read-only folder: `flock` works on a file opened for reading, so lock the one an
                // earlier run left, if any.
                descriptor = open(path, O_RDONLY | O_CLOEXEC)
                if descriptor < 0 {
                    if access(databasePath, F_OK) != 0 {
                        throw fail(.cannotCreate(folder: DatabaseFileCheck.folder(of: databasePath), reason: reason))
                    }
                    return nil
                }
            }
            guard descriptor >= 0 else { throw fail(.unreadable("\(path): \(String(cString: strerror(errno)))")) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                let holder = Self.holder(in: descriptor)
                close(descriptor)
                if failure == EWOULDBLOCK { throw fail(.inUse(holder)) }
                throw fail(.unreadable("cannot lock \(path): \(String(cString: strerror(failure)))"))
            }
            var held = stat(), named = stat()
            guard fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino
            else {
                close(descriptor)
                continue
            }
            let lock = DatabaseFileLock(descriptor: descriptor, path: path, created: created)
            lock.recordHolder()
            return lock
        }
        throw fail(.unreadable("cannot lock \(path): it keeps being replaced"))
    }

    private init(descriptor: Int32, path: String, created: Bool) {
        self.descriptor = descriptor
        self.path = path
        self.created = created
    }

    /// Closing the only descriptor of the lock file releases the lock.
    deinit { close(descriptor) }

    /// For a start that failed: removes the lock file if this lock made it, while still holding it.
    func removeIfCreated() {
        if created { unlink(path) }
    }

    /// Writes `pid N started T`; a lock file opened read-only keeps what it said.
    private func recordHolder() {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        let length = strftime(&stamp, stamp.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let started = String(decoding: stamp[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let line = Array("pid \(getpid()) started \(started)\n".utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// What the lock file says of its holder; nil before the holder has written it.
    private static func holder(in descriptor: Int32) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let words = String(decoding: bytes[..<count], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 4, words[0] == "pid", words[2] == "started", let processId = Int32(words[1]) else { return nil }
        return Holder(processId: processId, started: String(words[3]))
    }
}
