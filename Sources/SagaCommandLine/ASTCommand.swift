import SagaCore
import SagaLanguage
import SagaRuntime

/// `sagarun ast FILE`: the checked program's effect AST as JSON; with `--compiled`, what the
/// runtime compiles it to, as text (``ProgramListing``).
enum ASTCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.ast.parse(args, io) else { return .success }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("ast takes one saga file", command: "ast")
        }
        let (compiled, code) = SagaRunTool.compile(path, io)
        guard let program = compiled else { return code }
        if parsed.has("--compiled") {
            io.out(ProgramListing.text(of: program))
        } else {
            io.out(astJSON(program).canonicalJSON + "\n")
        }
        return .success
    }
}
