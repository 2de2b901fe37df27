import Foundation
import PackagePlugin

/// Writes the commit being built into the BuildInfo module before every build, so `--version`
/// names the commit of the binary even when no source file changed since the last build (a new
/// commit, a checkout). A prebuild command runs at every build; the script rewrites its output
/// only when the commit changed, so an unchanged tree compiles nothing.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = context.package.directoryURL.appending(path: "Plugins/BuildCommit/write-commit.sh")
        // The build's PATH finds git; AUTH_EMULATOR_COMMIT names the commit where there is no
        // history to read it from (a Docker build context without .git).
        let inherited = ProcessInfo.processInfo.environment
        let environment = ["PATH", "AUTH_EMULATOR_COMMIT"].reduce(into: [String: String]()) { kept, name in
            kept[name] = inherited[name]
        }
        return [
            .prebuildCommand(
                displayName: "Naming the commit built",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, output.appending(path: "GeneratedCommit.swift").path],
                environment: environment,
                outputFilesDirectory: output)
        ]
    }
}
