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
        let (paths, emptyFolders) = SagaFiles.expanding(parsed.positionals)
        for folder in emptyFolders {
            io.err("error: no .saga file under '\(folder)'\n")
            note(.noInput)
        }
        for path in paths {
            // Read and judged as `run` and `check` read a file: the reason it cannot be read,
            // and a byte-order mark dropped.
            let bytes: [UInt8]
            var hadByteOrderMark = false
            switch SourceLoader.readFromDisk(path) {
            case .failure(.unreadable(let reason)):
                io.err("error: cannot read '\(path)': \(reason)\n")
                note(.noInput)
                continue
            case .success(let read):
                bytes = SourceLoader.withoutByteOrderMark(read)
                hadByteOrderMark = bytes.count != read.count
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                io.err("error: '\(path)' is not valid UTF-8\n")
                note(.dataError)
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
            // A byte-order mark is a change: the formatted file has none.
            case .success(let formatted) where formatted == text && !hadByteOrderMark:
                continue
            case .success(let formatted):
                if check {
                    io.out("\(path)\n")
                    note(.failure)
                } else if let why = TextFile.write(formatted, to: path) {
                    io.err("error: cannot write '\(path)': \(why)\n")
                    note(.ioError)
                }
            }
        }
        return worst
    }
}
