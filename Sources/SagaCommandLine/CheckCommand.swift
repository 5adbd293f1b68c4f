import Foundation
import SagaCore
import SagaLanguage
import SagaRuntime

/// `sagarun check FILE… [--format text|json] [--input FILE]`: parse and check, print every
/// diagnostic, change nothing.
///
/// Without `--input` no program is built: each declaration is checked as it is parsed, then
/// let go of (`Frontend.check(path:)`). With it, the program is compiled, since its takes are
/// matched against the input's action types.
enum CheckCommand {
    /// The most bad input lines `--input` reports before it stops reading.
    static let inputErrorsShown = 20

    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.check.parse(args, io) else { return .success }
        guard !parsed.positionals.isEmpty else { throw UsageError("missing the saga files to check", command: "check") }
        let format = parsed.options["--format"] ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format is text or json, not '\(format)'", command: "check")
        }
        var inputTypes: Set<String>?
        if let input = parsed.options["--input"] {
            guard let source = input == "-" ? InputSource.standardInput() : InputSource.file(input) else {
                io.err("error: cannot read input file '\(input)': \(TextFile.whyUnreadable(input))\n")
                return .noInput
            }
            source.timedLikeLinesLookedAt = .max
            let (types, errors) = source.actionTypes(maxErrors: Self.inputErrorsShown)
            // A run would stop at the first; each is told, so that one check finds them all.
            for error in errors { io.err(error.described(in: source.name ?? input) + "\n") }
            if errors.count == Self.inputErrorsShown {
                io.err("note: the input was read no further after \(errors.count) bad lines\n")
            }
            guard errors.isEmpty else { return .dataError }
            for warning in source.timedLikeWarnings { io.err(warning + "\n") }
            inputTypes = types
        }
        var worst = ExitCode.success
        var documents: [Value] = []
        var permissions = Record()
        let (paths, emptyFolders) = SagaFiles.expanding(parsed.positionals)
        for folder in emptyFolders {
            io.err("error: no .saga file under '\(folder)'\n")
            worst = .noInput
        }
        for path in paths {
            let code: ExitCode
            var callees: Set<String> = []
            if format == "json" {
                // The program is needed only to match its takes against the input's types.
                let frontend = SagaRunTool.frontend(io)
                let result = inputTypes == nil ? frontend.check(path: path) : io.compile(path, with: frontend)
                callees = result.hostCallees
                var diagnostics = result.diagnostics
                if let inputTypes, let program = result.program {
                    diagnostics += ProgramGraph.unmatchedTakes(program, inputTypes: inputTypes)
                }
                documents.append(contentsOf: diagnostics.map { json($0, result.files) })
                for file in result.unreadableFiles where result.diagnostics.isEmpty {
                    documents.append(["file": .string(file), "severity": "error", "message": "cannot read the file"])
                }
                code = !result.unreadableFiles.isEmpty ? .noInput : result.hasErrors ? .dataError : .success
            } else if inputTypes == nil {
                let (checked, result) = SagaRunTool.check(path, io)
                code = checked
                callees = result.hostCallees
            } else {
                let (program, result) = SagaRunTool.compile(path, io)
                code = result
                callees = Set(program?.hostCallees ?? [])
                if let inputTypes, let program {
                    let warnings = ProgramGraph.unmatchedTakes(program, inputTypes: inputTypes)
                    io.err(
                        warnings.map { $0.rendered(files: program.files, colors: io.errorIsTerminal) + "\n" }.joined())
                }
            }
            if code == .noInput || (code == .dataError && worst == .success) { worst = code }
            // What the standard host library's calls need, for `sagarun run`.
            let needed = SagaRunTool.permissions(for: callees)
            if format == "json" {
                if !needed.isEmpty { permissions[path] = .list(needed.map { .string($0.flag) }) }
            } else if code == .success, !needed.isEmpty {
                let list = needed.map { "\($0.flag) (\($0.functions.joined(separator: ", ")))" }
                io.out("\(path): needs \(list.joined(separator: ", "))\n")
            }
        }
        if format == "json" {
            var document: Record = ["diagnostics": .list(documents)]
            if !permissions.isEmpty { document["permissions"] = .record(permissions) }
            io.out(Value.record(document).canonicalJSON + "\n")
        }
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
