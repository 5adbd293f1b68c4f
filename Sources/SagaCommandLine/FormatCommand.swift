import Foundation
import SagaCore
import SagaLanguage

/// `sagarun fmt FILE… [--check]`: canonical formatting, in place.
///
/// `--check` only lists the files that would change, and exits 1 if any would.
enum FormatCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.fmt.parse(args, io) else { return .success }
        guard !parsed.positionals.isEmpty else { throw UsageError("missing the saga files to format", command: "fmt") }
        let check = parsed.has("--check")
        var worst = ExitCode.success
        func note(_ code: ExitCode) {
            if code == .noInput || (code == .dataError && worst != .noInput) || (code == .failure && worst == .success)
            {
                worst = code
            }
        }
        for path in parsed.positionals {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else {
                io.err("error: cannot read '\(path)'\n")
                note(.noInput)
                continue
            }
            switch SagaFormatter.format(text) {
            case .failure(let error):
                let files = [SourceFile(path: path, text: text)]
                if error.diagnostics.isEmpty {
                    io.err("error: \(path): \(error.message)\n")
                } else {
                    io.err(
                        error.diagnostics.map { $0.rendered(files: files, colors: io.errorIsTerminal) + "\n" }.joined())
                }
                note(.dataError)
            case .success(let formatted) where formatted == text:
                continue
            case .success(let formatted):
                if check {
                    io.out("\(path)\n")
                    note(.failure)
                } else if (try? formatted.write(toFile: path, atomically: true, encoding: .utf8)) == nil {
                    io.err("error: cannot write '\(path)'\n")
                    note(.ioError)
                }
            }
        }
        return worst
    }
}
