import SagaLanguage

/// `sagarun graph FILE [--format mermaid|dot] [--no-reducers]`: the program as a diagram.
enum GraphCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.graph.parse(args, io) else { return .success }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("graph takes one saga file", command: "graph")
        }
        let format = parsed.options["--format"] ?? "mermaid"
        guard format == "mermaid" || format == "dot" else {
            throw UsageError("--format is mermaid or dot, not '\(format)'", command: "graph")
        }
        let (compiled, code) = SagaRunTool.compile(path, io)
        guard let program = compiled else { return code }
        let reducers = !parsed.has("--no-reducers")
        io.out(
            format == "dot"
                ? ProgramGraph.dot(program, includeReducers: reducers)
                : ProgramGraph.mermaid(program, includeReducers: reducers))
        return .success
    }
}
