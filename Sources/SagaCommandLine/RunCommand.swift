import SagaCore
import SagaLanguage
import SagaRuntime

/// `sagarun run FILE [options]`.
enum RunCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        let parsed = try Arguments.parse(args, Commands.run)
        if parsed.has("--help") {
            io.out(Commands.run.helpText)
            return .success
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError(
                parsed.positionals.isEmpty ? "missing the saga file to run" : "run takes one saga file; got \(parsed.positionals.count)",
                command: "run")
        }
        if parsed.has("--memory"), parsed.options["--store"] != nil {
            throw UsageError("--memory and --store cannot be used together", command: "run")
        }
        let (compiled, code) = SagaRunTool.compile(path, io)
        guard let program = compiled else { return code }

        var input: InputSource?
        if let inputPath = parsed.options["--input"] {
            if inputPath == "-" {
                input = InputSource.standardInput()
            } else {
                guard let file = InputSource.file(inputPath) else {
                    io.err("error: cannot read input file '\(inputPath)'\n")
                    return .noInput
                }
                input = file
            }
        }
        let options = Interpreter.Options(
            virtualTime: parsed.has("--virtual-time"), printActions: parsed.has("--print-actions"),
            printState: parsed.has("--print-state"), timestamps: parsed.has("--timestamps"))
        let interpreter = Interpreter(program: program, options: options, output: io.runOutput)
        switch await interpreter.run(input: input) {
        case .success: return .success
        case .sagaFailed: return .failure
        case .malformedInput: return .dataError
        }
    }
}
