import Foundation
import SagaRuntime

/// Golden-file tests: each `X.saga` with an `X.golden` beside it runs, and its transcript must
/// equal the golden file.
///
/// It runs as `sagarun run X.saga --virtual-time --print-actions --print-state --memory` (with
/// `--input X.input.jsonl` and `--mocks X.mocks.jsonl` when those files exist), and every mock
/// must be used as given.
///
/// `sagarun test` and the package's own tests share this code.
package enum GoldenSuite {
    /// One golden test.
    package struct Case: Sendable, CustomStringConvertible {
        /// The program.
        package var saga: String
        /// The expected transcript.
        package var golden: String
        /// The input, when there is one.
        package var input: String?
        /// The host functions' results (``HostMocks``), when there are any.
        package var mocks: String?
        /// Whether the golden file is there yet (`sagarun test --update` writes it).
        package var hasGolden = true
        /// A file beside the program that looks like its input but is not read (`X.jsonl`, where
        /// a test's input is `X.input.jsonl`), if there is one and no input file.
        package var misnamedInput: String?

        package var description: String { saga }
    }

    /// What a run gave.
    package struct Result: Sendable {
        package var expected: String
        package var actual: String
        /// Standard error of the run (diagnostics, failure reports).
        package var errors: String
        package var exitCode: Int32
        /// What the mocks reported: unexpected calls (caught by the saga or not) and lines no
        /// call took.
        package var mockProblems: [String]
        /// Whether the transcript grew past ``GoldenSuite/transcriptLimit(expected:)``: the run
        /// was stopped there, and `actual` holds what came before.
        package var isCut = false
        /// Whether the transcript equals the golden file and every mock went as given.
        package var matches: Bool { expected == actual && mockProblems.isEmpty && !isCut }
    }

    /// Every case under `paths` (files or folders, searched recursively), sorted by path: each
    /// `.saga` with a golden file, and, with `missing`, each that has none yet but is a test
    /// (it has an input or mocks file, was named itself, or declares a root saga).
    package static func discover(_ paths: [String], missing: Bool = false) -> [Case] {
        var named: Set<String> = []
        var sagas: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                // Named as the folder was given (relative stays relative), as a file given is.
                let base = path == "." ? "" : path.hasSuffix("/") ? path : path + "/"
                guard let walker = fm.enumerator(atPath: path) else { continue }
                for case let relative as String in walker where relative.hasSuffix(".saga") {
                    sagas.append(base + relative)
                }
            } else if path.hasSuffix(".saga") {
                sagas.append(path)
                named.insert(path)
            }
        }
        var cases: [Case] = []
        for saga in Set(sagas).sorted() {
            let stem = String(saga.dropLast(".saga".count))
            let golden = stem + ".golden"
            let input = fm.fileExists(atPath: stem + ".input.jsonl") ? stem + ".input.jsonl" : nil
            let mocks = fm.fileExists(atPath: stem + ".mocks.jsonl") ? stem + ".mocks.jsonl" : nil
            var c = Case(saga: saga, golden: golden, input: input)
            c.mocks = mocks
            if input == nil, fm.fileExists(atPath: stem + ".jsonl") { c.misnamedInput = stem + ".jsonl" }
            if !fm.fileExists(atPath: golden) {
                guard missing, input != nil || mocks != nil || named.contains(saga) || declaresASaga(saga) else {
                    continue
                }
                c.hasGolden = false
            }
            cases.append(c)
        }
        return cases
    }

    /// The `.saga` files under `paths` that have an input or mocks file but no golden file:
    /// tests whose expected transcript is missing.
    package static func withoutGolden(_ paths: [String]) -> [Case] {
        discover(paths, missing: true).filter { !$0.hasGolden && ($0.input != nil || $0.mocks != nil) }
    }

    /// Whether the file declares a root saga of its own (a line that begins `saga NAME`), as
    /// opposed to a file of functions that others import.
    static func declaresASaga(_ path: String) -> Bool {
        guard let text = TextFile.read(path) else { return false }
        return text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("saga ") }
    }

    /// A golden file's text as the transcript it stands for: lines that end `\r\n` (as a
    /// checkout on Windows writes them) end `\n`, and a last line without its newline has one.
    static func transcript(of golden: String) -> String {
        var text = golden.contains("\r\n") ? golden.replacingOccurrences(of: "\r\n", with: "\n") : golden
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        return text
    }

    /// The unified diff `sagarun test` prints for a transcript that does not match its golden
    /// file.
    package static func diff(expected: String, actual: String, expectedName: String) -> String {
        UnifiedDiff.render(expected: expected, actual: actual, expectedName: expectedName, actualName: "actual")
    }

    /// Runs one case through the same code as `sagarun run`, with `host`'s functions beside
    /// those the case's mocks give (the mocks' win).
    package static func run(_ c: Case, host: HostFunctions = HostFunctions()) async -> Result {
        let io = CapturedIO()
        io.hostFunctions = host
        let expected = c.hasGolden ? transcript(of: TextFile.read(c.golden) ?? "") : ""
        io.transcriptLimit = transcriptLimit(expected: expected)
        var args = ["run", c.saga, "--virtual-time", "--print-actions", "--print-state", "--memory"]
        if let input = c.input { args += ["--input", input] }
        if let mocks = c.mocks { args += ["--mocks", mocks] }
        let code = await SagaRunTool.main(args, io: io)
        var result = Result(
            expected: expected, actual: io.stdout, errors: io.stderr, exitCode: code, mockProblems: io.mockProblems)
        result.isCut = io.transcriptIsFull
        return result
    }

    /// The longest transcript a test keeps: four times its golden's, and at least 16 MiB.
    ///
    /// A program that never ends (a polling loop on the virtual clock, say) is stopped there
    /// rather than fill memory, and its golden test fails.
    package static func transcriptLimit(expected: String) -> Int {
        max(expected.utf8.count.multipliedReportingOverflow(by: 4).partialValue, 16 << 20)
    }
}
