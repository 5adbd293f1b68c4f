import SagaCore
import SagaLanguage

/// `sagarun check FILE… [--format text|json]`: parse and check, print every diagnostic,
/// change nothing.
enum CheckCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        let parsed = try Arguments.parse(args, Commands.check)
        if parsed.has("--help") {
            io.out(Commands.check.helpText)
            return .success
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("missing the saga files to check", command: "check") }
        let format = parsed.options["--format"] ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format is text or json, not '\(format)'", command: "check")
        }
        var worst = ExitCode.success
        var documents: [Value] = []
        for path in parsed.positionals {
            let code: ExitCode
            if format == "json" {
                let result = Frontend().compile(path: path)
                documents.append(contentsOf: result.diagnostics.map { json($0, result.files) })
                for file in result.unreadableFiles where result.diagnostics.isEmpty {
                    documents.append(["file": .string(file), "severity": "error", "message": "cannot read the file"])
                }
                code = !result.unreadableFiles.isEmpty ? .noInput : result.hasErrors ? .dataError : .success
            } else {
                code = SagaRunTool.compile(path, io).1
            }
            if code == .noInput || (code == .dataError && worst == .success) { worst = code }
        }
        if format == "json" { io.out(Value.record(["diagnostics": .list(documents)]).canonicalJSON + "\n") }
        return worst
    }

    /// A diagnostic as a JSON record: file, line, column, severity, message.
    private static func json(_ d: Diagnostic, _ files: [SourceFile]) -> Value {
        let index = Int(d.location.file)
        let file: Value = index >= 0 && index < files.count ? .string(files[index].path) : .null
        return [
            "file": file, "line": .int(Int(d.location.line)), "column": .int(Int(d.location.column)),
            "severity": .string(d.severity.rawValue), "message": .string(d.message),
        ]
    }
}
