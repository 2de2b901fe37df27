import BuildInfo
import HTTPServer
import JOSE
import SQLiteStore

/// What `--version` prints. The first line, `auth-emulator VERSION`, stays exactly that, for test
/// kits that compare their version with the binary's; then the commit built and the versions of
/// the three libraries as loaded at run time (a distribution's update changes them, not a build).
public enum VersionReport {
    public static var text: String {
        """
        auth-emulator \(BuildInfo.version)
        commit \(BuildInfo.commit)
        libmicrohttpd \(HTTPServer.libraryVersion)
        SQLite \(SQLiteDatabase.libraryVersion)
        OpenSSL \(OpenSSLLibrary.version)
        """
    }
}
