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
        var documents: [Value] = []
        var inputWorst = ExitCode.success
        if let input = parsed.options["--input"] {
            guard let source = input == "-" ? InputSource.standardInput() : InputSource.file(input) else {
                let message = "cannot read input file '\(input)': \(TextFile.whyUnreadable(input))"
                if format == "json" {
                    let document = json(file: input, line: nil, column: nil, .error, message)
                    io.out(Value.record(["diagnostics": [document]]).canonicalJSON + "\n")
                } else {
                    io.err("error: \(message)\n")
                }
                return .noInput
            }
            source.timedLikeLinesLookedAt = .max
            let (types, errors) = source.actionTypes(maxErrors: Self.inputErrorsShown)
            let name = source.name ?? input
            let readNoFurther =
                errors.count == Self.inputErrorsShown
                ? "the input was read no further after \(errors.count) bad lines" : nil
            if format == "json" {
                documents += errors.map { error in
                    json(file: name, line: error.line, column: Int(error.column), .error, error.message)
                }
                if let readNoFurther {
                    documents.append(json(file: name, line: nil, column: nil, .note, readNoFurther))
                }
            } else {
                // A run would stop at the first; each is told, so that one check finds them all.
                for error in errors { io.err(error.described(in: name) + "\n") }
                if let readNoFurther { io.err("note: \(readNoFurther)\n") }
            }
            // The program is checked all the same, its takes matched against no input types.
            if !errors.isEmpty { inputWorst = .dataError }
            for warning in source.warnings {
                if format == "json" {
                    documents.append(json(file: name, line: warning.line, column: nil, .warning, warning.message))
                } else {
                    io.err(warning.described(in: name) + "\n")
                }
            }
            if errors.isEmpty { inputTypes = types }
        }
        var worst = inputWorst
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

    /// A diagnostic of the input file as a JSON record, as a program's are: its line and
    /// column `0` when it has none (a column past the line's start only for a JSON error).
    private static func json(
        file: String, line: Int?, column: Int?, _ severity: Diagnostic.Severity, _ message: String
    ) -> Value {
        [
            "file": .string(file), "line": .int(line ?? 0), "column": .int(column ?? 0),
            "severity": .string(severity.rawValue), "message": .string(message),
        ]
    }
}
