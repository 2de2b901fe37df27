/// What this binary is: the release version and the commit it was built from (`--version`,
/// `GET /`). The commit comes from the BuildCommit plugin, which writes it at every build.
public enum BuildInfo {
    /// The release version; test kits compare theirs with it.
    public static let version = "0.1.0"
    /// The 40 hex digits of the commit built, with `-dirty` when tracked files differed from it;
    /// `unknown` for a tree without git history that no one named a commit for.
    public static let commit = generatedCommit
}
