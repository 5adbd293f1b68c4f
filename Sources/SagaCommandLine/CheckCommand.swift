import SagaLanguage

/// `sagarun check FILE…`: parse and check, print every diagnostic, change nothing.
enum CheckCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        let parsed = try Arguments.parse(args, Commands.check)
        if parsed.has("--help") {
            io.out(Commands.check.helpText)
            return .success
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("missing the saga files to check", command: "check") }
        var worst = ExitCode.success
        for path in parsed.positionals {
            let (_, code) = SagaRunTool.compile(path, io)
            if code == .noInput || (code == .dataError && worst == .success) { worst = code }
        }
        return worst
    }
}
