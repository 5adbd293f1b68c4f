import SagaLanguage

/// The command-line arguments of one command, parsed against its ``CommandSpec``: the small
/// piece of swift-argument-parser that `sagarun` needs (flags, options with a value as
/// `--name value` or `--name=value`, options whose value is optional and which may repeat,
/// as `--name` or `--name=value`, positionals, and `--` to end options).
struct Arguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]
    /// Each occurrence of an option whose value is optional: its value, or `nil` when it has none.
    var repeated: [String: [String?]] = [:]
    /// The arguments after `--`, which are also the last ``positionals``.
    var afterDashes: [String] = []

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Parses `args` for `spec`.
    ///
    /// - Throws: ``UsageError`` for an unknown option or a missing value.
    static func parse(_ args: ArraySlice<String>, _ spec: CommandSpec) throws(UsageError) -> Arguments {
        var parsed = Arguments()
        var rest = args
        while let arg = rest.popFirst() {
            if arg == "--" {
                parsed.positionals.append(contentsOf: rest)
                parsed.afterDashes = Array(rest)
                break
            }
            if arg == "-h" || arg == "--help" {
                parsed.flags.insert("--help")
                continue
            }
            if arg.hasPrefix("--") {
                var name = arg
                var inlineValue: String?
                if let eq = arg.firstIndex(of: "=") {
                    name = String(arg[..<eq])
                    inlineValue = String(arg[arg.index(after: eq)...])
                }
                if let option = spec.repeatable.first(where: { $0.name == name }) {
                    if option.valueRequired {
                        guard let value = inlineValue ?? rest.popFirst() else {
                            throw UsageError("missing value for '\(name)'", command: spec.name)
                        }
                        parsed.repeated[name, default: []].append(value)
                    } else {
                        parsed.repeated[name, default: []].append(inlineValue)
                    }
                } else if spec.flags.contains(where: { $0.name == name }) {
                    if inlineValue != nil { throw UsageError("the flag '\(name)' takes no value", command: spec.name) }
                    parsed.flags.insert(name)
                } else if spec.options.contains(where: { $0.name == name }) {
                    guard let value = inlineValue ?? rest.popFirst() else {
                        throw UsageError("missing value for '\(name)'", command: spec.name)
                    }
                    parsed.options[name] = value
                } else {
                    let known = (spec.flags + spec.options + spec.repeatable).map(\.name)
                    var message = "unknown option '\(name)'"
                    if let guess = closest(name, in: known) { message += "; did you mean '\(guess)'?" }
                    throw UsageError(message, command: spec.name)
                }
                continue
            }
            if arg.hasPrefix("-"), arg != "-" {
                throw UsageError("unknown option '\(arg)'", command: spec.name)
            }
            parsed.positionals.append(arg)
        }
        return parsed
    }

    /// The known name nearest to `name`, if it is near enough to be a typo, or the one known
    /// name it begins (`--virtual` for `--virtual-time`).
    private static func closest(_ name: String, in names: [String]) -> String? {
        // A third of the name may differ, up to three characters: `--inptu` is `--input`,
        // `--bogus` is not `--mocks`.
        let allowed = Swift.min(3, Swift.max(1, name.utf8.count / 3))
        var best: (String, Int)?
        for candidate in names {
            let d = Suggestions.editDistance(name, candidate)
            if d <= allowed, d < best?.1 ?? Int.max { best = (candidate, d) }
        }
        if let best { return best.0 }
        let longer = names.filter { $0.hasPrefix(name) && name.count > 2 }
        return longer.count == 1 ? longer[0] : nil
    }
}

/// Bad usage of the command line (exit code 64).
struct UsageError: Error {
    var message: String
    /// The command whose usage to show.
    var command: String

    init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }
}

/// What a command accepts, and its help.
struct CommandSpec {
    struct Option {
        var name: String
        /// Shown as `--name <valueName>`; `nil` for a flag.
        var valueName: String?
        var help: String
        /// For one of ``CommandSpec/repeatable``: whether it must have a value (`--name value`
        /// or `--name=value`), rather than taking one only after `=`.
        var valueRequired = false
    }

    var name: String
    var abstract: String
    var usage: String
    var arguments: [(String, String)]
    var flags: [Option]
    var options: [Option]
    /// Options that may be given more than once: with a value that is optional
    /// (`--allow-read` or `--allow-read=PATH,…`, shown as `--name[=<valueName>]`), or required
    /// (``Option/valueRequired``).
    var repeatable: [Option] = []
    var discussion: String = ""
    /// A command group's subcommands and what each does (shown before the options).
    var subcommands: [(String, String)] = []

    /// Parses a command's arguments; on `--help`, prints the help and returns `nil` (the
    /// command then exits 0).
    func parse(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> Arguments? {
        let parsed = try Arguments.parse(args, self)
        if parsed.has("--help") {
            io.out(helpText)
            return nil
        }
        return parsed
    }

    /// The `--help` text, laid out as swift-argument-parser does.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for (name, help) in subcommands { text += CommandSpec.row(name, help) }
        }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for (name, help) in arguments { text += CommandSpec.row(name, help) }
        }
        text += "\nOPTIONS:\n"
        let optional = Set(repeatable.map(\.name))
        let all = (options + flags + repeatable).sorted { $0.name < $1.name }
        for option in all {
            let label =
                optional.contains(option.name) && !option.valueRequired
                ? option.name + (option.valueName.map { "[=<\($0)>]" } ?? "")
                : option.valueName.map { "\(option.name) <\($0)>" } ?? option.name
            text += CommandSpec.row(label, option.help)
        }
        text += CommandSpec.row("-h, --help", "Show help information.")
        return text
    }

    private static func row(_ label: String, _ help: String) -> String {
        let pad =
            label.count < 24
            ? String(repeating: " ", count: 24 - label.count) : "\n" + String(repeating: " ", count: 26)
        return "  \(label)\(pad)\(help)\n"
    }
}
