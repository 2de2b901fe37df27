@testable import AuthEmulator
import Foundation
import Testing

/// The command line's mistakes, `exec`, and firebase.json / .firebaserc (the binary itself runs
/// in Tests/python/test_command_line.py and test_exec.py).
@Suite struct CommandLineErrorTests {
    /// The error's message, and its hint's lines.
    func refusal(_ arguments: [String], in directory: String? = nil) -> (message: String, hint: [String]) {
        do {
            let outcome = try CommandLineOptions.parse(arguments, workingDirectory: directory)
            Issue.record("parsed \(arguments) into \(outcome)")
            return ("", [])
        } catch {
            return (error.description, error.hint.map { $0.split(separator: "\n").map(String.init) } ?? [])
        }
    }

    @Test func aMistypedFlagNamesTheNearestAndTwoLinesOfUsage() {
        let (message, hint) = refusal(["--prot", "9100"])
        #expect(message == "unknown option --prot; did you mean --port?")
        #expect(hint == ["usage: auth-emulator [--port N] [--project ID] [--data FILE] [options]", "`auth-emulator --help` lists every option"])
        #expect(refusal(["--projct", "x"]).message == "unknown option --projct; did you mean --project?")
        #expect(refusal(["-port", "1"]).message == "unknown option -port; did you mean --port?")
    }

    @Test func shortFlagsABarePortAndFirebaseCommandsGetAHint() {
        #expect(refusal(["-p", "9100"]).message == "unknown option -p: the port is --port N, the project --project ID")
        #expect(refusal(["-P", "demo-x"]).message == "unknown option -P (firebase's short --project): use --project ID")
        #expect(refusal(["9100"]).message == "unexpected argument 9100: to listen on port 9100, use --port 9100")
        #expect(refusal(["emulators:exec", "npm test"]).message == "emulators:exec is the Firebase CLI's: use auth-emulator exec -- CMD")
        #expect(refusal(["exex", "x"]).message == "unknown command exex; did you mean exec?")
        #expect(refusal(["--email", "a@b.c"]).message == "unknown option --email: it is an option of `auth-emulator mint`")
    }

    @Test func badValuesNameTheFlagAndWhatItTakes() {
        #expect(refusal(["--port", "abc"]).message == "--port must be a port number, 0…65535 (0 for any free port), not \"abc\"")
        #expect(refusal(["--port", "70000"]).message == "--port must be a port number, 0…65535 (0 for any free port), not \"70000\"")
        #expect(refusal(["--smtp-port=-1"]).message == "--smtp-port must be a port number, 0…65535 (0 for any free port), not \"-1\"")
        #expect(refusal(["--idp-tokens", "loose"]).message == "--idp-tokens must be lenient or strict, not \"loose\"")
        #expect(refusal(["--log-level", "loud"]).message == "--log-level must be debug, info, warn or error, not \"loud\"")
        #expect(refusal(["--port"]).message == "--port needs a value: --port N")
        // The next flag is not taken as the missing value.
        #expect(refusal(["--port", "--project", "x"]).message == "--port needs a value: --port N")
        #expect(refusal(["--version=2"]).message == "--version takes no value")
        #expect(refusal(["--project", "my_app"]).message == "--project must be letters, digits and hyphens, not \"my_app\"")
    }

    @Test func eachCommandHasItsOwnHelpAndHint() throws {
        for (command, flag) in [("mint", "--hide-email"), ("export", "--out"), ("exec", "--port")] {
            guard case .help(let usage) = try CommandLineOptions.parse([command, "--help"]) else {
                Issue.record("\(command) --help is not help")
                continue
            }
            #expect(usage.hasPrefix("usage: auth-emulator \(command) "))
            #expect(usage.contains("  \(flag)"))
            #expect(refusal([command, "--nope"]).hint.last == "`auth-emulator \(command) --help` lists every option")
        }
        #expect(refusal(["mint", "apple.com", "--emial", "a@b.c"]).message == "unknown option --emial; did you mean --email?")
        #expect(refusal(["export", "--data", "f", "--out", "d", "--project", "a b"]).message == "--project must be letters, digits and hyphens, not \"a b\"")
    }

    /// `--help` lists exactly the flags the parser reads: each listed flag parses with a value of
    /// its kind, and a flag the parser reads but the table lacks would be refused as unknown.
    @Test func theUsageTableAndTheParserAgree() throws {
        let samples = ["N": "0", "lenient|strict": "strict", "unsigned|signed": "signed", "debug|info|warn|error": "warn", "text|json": "json"]
        let directory = try TemporaryDirectory()
        try directory.write("firebase.json", "{}")
        for flag in CommandUsage.serveFlags {
            let value = flag.value.map { samples[$0] ?? (flag.name == "--config" ? directory.path + "/firebase.json" : "x") }
            let outcome = try CommandLineOptions.parse([flag.name] + (value.map { [$0] } ?? []))
            guard case .run = outcome else {
                Issue.record("\(flag.name) did not parse into a run")
                continue
            }
        }
    }
}

@Suite struct ExecCommandTests {
    func exec(_ arguments: [String]) throws -> ExecCommand? {
        guard case .exec(let command) = try CommandLineOptions.parse(["exec"] + arguments) else { return nil }
        return command
    }

    @Test func theCommandStartsAtTheFirstWordOrAfterTheSeparator() throws {
        let separated = try #require(try exec(["--port", "9100", "--", "npm", "--port", "1"]))
        #expect(separated.command == ["npm", "--port", "1"])
        #expect(separated.serve.configuration.port == 9100)
        #expect(try exec(["--project=demo-x", "pytest", "-q"])?.command == ["pytest", "-q"])
        #expect(try exec(["--project=demo-x", "pytest", "-q"])?.serve.configuration.projectId == "demo-x")
    }

    @Test func oneWordIsAShellScriptAndSeveralAreAProgram() throws {
        #expect(try exec(["npm test && npm run e2e"])?.processArguments == ["/bin/sh", "-c", "npm test && npm run e2e"])
        #expect(try exec(["npm", "test"])?.processArguments == ["npm", "test"])
    }

    @Test func anyFreePortAndOnlyWarningsUnlessAsked() throws {
        let defaults = try #require(try exec(["true"]))
        #expect(defaults.serve.configuration.port == 0)
        #expect(defaults.serve.configuration.logLevel == .warning)
        #expect(defaults.serve.origins.port == "any free port")
        #expect(try exec(["--log-level", "info", "true"])?.serve.configuration.logLevel == .info)
    }

    @Test func withoutACommandItIsAMistake() {
        #expect(throws: CommandLineOptions.UsageError("exec needs a command to run, e.g. auth-emulator exec -- npm test", hint: CommandUsage.exec.hint)) {
            try CommandLineOptions.parse(["exec", "--port", "0", "--"])
        }
    }

    @Test func theEnvironmentNamesTheEmulatorAndItsProject() throws {
        let command = try #require(try exec(["--project", "demo-x", "true"]))
        let environment = command.environment(inheriting: ["PATH": "/bin", "GCLOUD_PROJECT": "prod"], emulatorHost: "127.0.0.1:4321", smtpAddress: nil)
        #expect(environment["PATH"] == "/bin")
        #expect(environment["FIREBASE_AUTH_EMULATOR_HOST"] == "127.0.0.1:4321")
        for name in ["GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT", "FIREBASE_PROJECT_ID"] { #expect(environment[name] == "demo-x") }
        #expect(environment["FIREBASE_CONFIG"] == #"{"projectId":"demo-x","storageBucket":"demo-x.appspot.com","databaseURL":"https://demo-x.firebaseio.com"}"#)
        #expect(environment["FIREBASE_AUTH_EMULATOR_SMTP"] == nil)
        // A FIREBASE_CONFIG of the caller's own is kept, as firebase-tools keeps it.
        let kept = command.environment(inheriting: ["FIREBASE_CONFIG": "{}"], emulatorHost: "h:1", smtpAddress: "127.0.0.1:2525")
        #expect(kept["FIREBASE_CONFIG"] == "{}")
        #expect(kept["FIREBASE_AUTH_EMULATOR_SMTP"] == "127.0.0.1:2525")
    }
}

@Suite struct FirebaseProjectFileTests {
    func serve(_ arguments: [String], in directory: String) throws -> ServeCommand? {
        guard case .run(let command) = try CommandLineOptions.parse(arguments, workingDirectory: directory) else { return nil }
        return command
    }

    func refusal(_ arguments: [String] = [], in directory: String) -> String {
        do {
            _ = try CommandLineOptions.parse(arguments, workingDirectory: directory)
            return "(parsed)"
        } catch {
            #expect(error.hint == nil || arguments.contains("--project"))
            return error.description
        }
    }

    @Test func firebaseJSONIsFoundInAParentAndGivesHostAndPort() throws {
        let project = try TemporaryDirectory()
        try project.write("firebase.json", #"{"hosting": {"public": "dist"}, "emulators": {"auth": {"host": "0.0.0.0", "port": 9199}, "ui": {"port": 4000}}}"#)
        try project.write(".firebaserc", #"{"projects": {"default": "demo-rc"}}"#)
        let nested = try project.directory("web/src")
        let command = try #require(try serve([], in: nested))
        #expect(command.configuration.host == "0.0.0.0")
        #expect(command.configuration.port == 9199)
        #expect(command.configuration.projectId == "demo-rc")
        #expect(command.origins.host == "\(project.path)/firebase.json emulators.auth.host")
        #expect(command.origins.port == "\(project.path)/firebase.json emulators.auth.port")
        #expect(command.origins.project == "\(project.path)/.firebaserc projects.default")
    }

    @Test func flagsWin() throws {
        let project = try TemporaryDirectory()
        try project.write("firebase.json", #"{"emulators": {"auth": {"host": "0.0.0.0", "port": "9199"}}}"#)
        try project.write(".firebaserc", #"{"projects": {"default": "demo-rc", "staging": "demo-staging"}}"#)
        let command = try #require(try serve(["--port", "0", "--host", "127.0.0.1", "--project", "demo-flag"], in: project.path))
        #expect(command.configuration.port == 0)
        #expect(command.configuration.host == "127.0.0.1")
        #expect(command.configuration.projectId == "demo-flag")
        #expect(command.origins == SettingOrigins(host: "--host", port: "--port", project: "--project"))
        // --project resolves .firebaserc's aliases, as `firebase --project staging` does.
        let aliased = try #require(try serve(["--project", "staging"], in: project.path))
        #expect(aliased.configuration.projectId == "demo-staging")
        #expect(aliased.origins.project == "--project staging, an alias in \(project.path)/.firebaserc")
        // A string of digits is a port, as the Firebase CLI reads it.
        #expect(try serve([], in: project.path)?.configuration.port == 9199)
    }

    @Test func theOnlyAliasIsTheDefaultAndNoFilesMeanTheDefaults() throws {
        let project = try TemporaryDirectory()
        try project.write(".firebaserc", #"{"projects": {"prod": "my-app"}}"#)
        let command = try #require(try serve([], in: project.path))
        #expect(command.configuration.projectId == "my-app")
        #expect(command.configuration.port == 9099)
        #expect(command.origins == SettingOrigins(host: "default", port: "default", project: "\(project.path)/.firebaserc projects.prod"))
        let empty = try TemporaryDirectory()
        #expect(try serve([], in: empty.path)?.configuration == AuthEmulator.Configuration())
    }

    @Test func configNamesTheFileAndTheFirebasercBesideIt() throws {
        let project = try TemporaryDirectory()
        try project.write("ci/firebase.ci.json", #"{"emulators": {"auth": {"port": 9300}}}"#)
        try project.write("ci/.firebaserc", #"{"projects": {"default": "demo-ci"}}"#)
        try project.write("firebase.json", #"{"emulators": {"auth": {"port": 9100}}}"#)
        let command = try #require(try serve(["--config", "ci/firebase.ci.json"], in: project.path))
        #expect(command.configuration.port == 9300)
        #expect(command.configuration.projectId == "demo-ci")
        #expect(refusal(["--config", "missing.json"], in: project.path) == "--config: no file at \(project.path)/missing.json")
    }

    @Test func commentsAndAnEmptyFileAreWhatTheFirebaseCLIAccepts() throws {
        let project = try TemporaryDirectory()
        try project.write("firebase.json", """
            {
              // the Auth emulator
              "emulators": { /* host: default */ "auth": { "port": 9105, "host": "http://x//y" } }
            }
            """)
        #expect(try serve([], in: project.path)?.configuration.port == 9105)
        #expect(try serve([], in: project.path)?.configuration.host == "http://x//y")  // a comment marker inside a string is text
        try project.write("firebase.json", "")
        #expect(try serve([], in: project.path)?.configuration.port == 9099)
    }

    @Test(arguments: [
        (#"{"emulators": {"auth": {"port": 9099,}}}"#, "firebase.json: not valid JSON: "),
        ("{\n  \"emulators\": {\n    \"auth\" {}\n}", "firebase.json: not valid JSON: "),
        (#"{"emulators": {"auth": {"port": "abc"}}}"#, #"firebase.json: emulators.auth.port must be a port number, 0…65535, not "abc""#),
        (#"{"emulators": {"auth": {"port": 9099.5}}}"#, "firebase.json: emulators.auth.port must be a port number, 0…65535, not 9099.5"),
        (#"{"emulators": {"auth": {"port": 70000}}}"#, "firebase.json: emulators.auth.port must be a port number, 0…65535, not 70000"),
        (#"{"emulators": {"auth": {"host": 9099}}}"#, "firebase.json: emulators.auth.host must be a host name or address, as a string, not 9099"),
        (#"{"emulators": {"auth": "9099"}}"#, #"firebase.json: emulators.auth must be an object, not "9099""#),
        (#"{"emulators": []}"#, "firebase.json: emulators must be an object, not an array"),
        (#"["emulators"]"#, "firebase.json must hold a JSON object, not an array"),
    ])
    func aMalformedFirebaseJSONNamesTheFileAndTheKey(_ text: String, _ expected: String) throws {
        let project = try TemporaryDirectory()
        try project.write("firebase.json", text)
        let message = refusal(in: project.path)
        #expect(message.hasPrefix("\(project.path)/\(expected)"), "\(message)")
        // A flag does not hide a malformed file: the file is read all the same.
        #expect(refusal(["--port", "0"], in: project.path) == message)
    }

    @Test func aJSONErrorSaysWhere() throws {
        let project = try TemporaryDirectory()
        try project.write("firebase.json", "{\n  \"emulators\": {\n    \"auth\" {}\n}")
        #expect(refusal(in: project.path).hasSuffix("at line 3, column 12"))
    }

    @Test func aMalformedFirebasercNamesTheFileAndTheKey() throws {
        let project = try TemporaryDirectory()
        try project.write(".firebaserc", #"{"projects": {"default": 12}}"#)
        #expect(refusal(in: project.path) == "\(project.path)/.firebaserc: projects.default must be a project id, as a string, not 12")
        try project.write(".firebaserc", #"{"projects": {"default": "my_app"}}"#)
        #expect(refusal(in: project.path) == "\(project.path)/.firebaserc: projects.default must be letters, digits and hyphens, not \"my_app\"")
        try project.write(".firebaserc", #"{"projects": "my-app"}"#)
        #expect(refusal(in: project.path) == "\(project.path)/.firebaserc: projects must be an object, not \"my-app\"")
    }
}

@Suite struct VersionReportTests {
    @Test func theFirstLineIsTheVersionAloneThenTheCommitAndTheLibraries() {
        let lines = VersionReport.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == "auth-emulator 0.1.0")
        #expect(lines[1].hasPrefix("commit "))
        #expect(lines[2].hasPrefix("libmicrohttpd 0.9."))
        #expect(lines[3].hasPrefix("SQLite 3."))
        #expect(lines[4].hasPrefix("OpenSSL 3."))
    }
}

/// A directory under the system's temporary one, removed when the test's value goes.
final class TemporaryDirectory {
    let path: String

    init() throws {
        // Resolved (/tmp may be a link), so paths compare with those the parser builds.
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        path = "\(base)/command-line-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        let file = "\(path)/\(name)"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    func directory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(path)/\(name)", withIntermediateDirectories: true)
        return "\(path)/\(name)"
    }
}
