/// Reads one command's arguments in order: flags as `--name value` or `--name=value`, checked
/// against the flags its usage lists, so that a mistake names the nearest flag and is followed
/// by the command's two-line usage rather than the whole of it.
struct ArgumentReader {
    enum Argument: Equatable {
        case flag(String)
        /// An argument that is not a flag (a provider id, exec's command).
        case word(String)
        /// `--`: everything after it is exec's command.
        case separator
    }

    let usage: CommandUsage
    private var remaining: ArraySlice<String>
    /// The value written after `=` in the flag just read.
    private var inlineValue: String?

    init(_ arguments: [String], usage: CommandUsage) {
        self.usage = usage
        remaining = arguments[...]
    }

    /// The next argument, nil at the end. A flag this command does not know is refused here.
    mutating func next() throws(CommandLineOptions.UsageError) -> Argument? {
        guard let argument = remaining.popFirst() else { return nil }
        inlineValue = nil
        if argument == "--" { return .separator }
        guard argument.hasPrefix("-"), argument.count > 1, !argument.allSatisfy({ $0 == "-" || $0.isNumber }) else {
            return .word(argument)
        }
        var name = argument == "-h" ? "--help" : argument
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let flag = usage.flag(name) else { throw unknownFlag(name) }
        if flag.value == nil, inlineValue != nil { throw error("\(name) takes no value") }
        return .flag(name)
    }

    /// The value of `flag`, just read: after its `=`, else the next argument, unless that is
    /// another of this command's flags (`--port --project x` forgot the port).
    mutating func value(of flag: String) throws(CommandLineOptions.UsageError) -> String {
        if let inlineValue { return inlineValue }
        let described = usage.flag(flag)?.value.map { ": \(flag) \($0)" } ?? ""
        guard let next = remaining.first, usage.flag(next) == nil else { throw error("\(flag) needs a value\(described)") }
        remaining.removeFirst()
        return next
    }

    /// What is left, unread: exec's command.
    mutating func rest() -> [String] {
        defer { remaining = [] }
        return Array(remaining)
    }

    /// A mistake, followed by this command's short usage.
    func error(_ message: String) -> CommandLineOptions.UsageError {
        CommandLineOptions.UsageError(message, hint: usage.hint)
    }

    /// An argument that is not one of this command's flags: the flag it most likely meant, or
    /// the command that has it.
    private func unknownFlag(_ name: String) -> CommandLineOptions.UsageError {
        let known = usage.flags.map(\.name)
        if let meant = NearestName.among(known, to: name) {
            return error("unknown option \(name); did you mean \(meant)?")
        }
        switch name {
        case "-p": return error("unknown option -p: the port is --port N, the project --project ID")
        case "-P": return error("unknown option -P (firebase's short --project): use --project ID")
        default: break
        }
        if let owner = CommandUsage.all.first(where: { $0.command != usage.command && $0.flag(name) != nil }) {
            return error("unknown option \(name): it is an option of `\(owner.command)`")
        }
        return error("unknown option \(name)")
    }
}
