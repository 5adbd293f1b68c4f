import Foundation
import SagaLanguage
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
        /// Files beside the program that look like its input or its mocks but are not read
        /// (`X.jsonl`, `X.input.json`, `X.mock.jsonl`, where a test reads `X.input.jsonl` and
        /// `X.mocks.jsonl`).
        package var misnamed: [String] = []

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
        /// Whether a limit (`--max-run-steps`, `--max-turns-without-input`, memory) stopped the
        /// run: a program that had to be stopped does not pass, whatever it printed.
        package var stoppedByLimit = false
        /// Whether the transcript equals the golden file, every mock went as given and the run
        /// ended on its own.
        package var matches: Bool { expected == actual && mockProblems.isEmpty && !isCut && !stoppedByLimit }
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
                sagas += SagaFiles.named(under: path)
            } else if path.hasSuffix(".saga") {
                sagas.append(path)
                named.insert(samePath(path))
            } else if let saga = program(companion: path), fm.fileExists(atPath: saga) {
                // A test's golden, input or mocks file names its program.
                sagas.append(saga)
                named.insert(samePath(saga))
            }
        }
        var cases: [Case] = []
        var folders: [String: [String]] = [:]
        // A program named twice (`x.saga` and `./x.saga`, or a file and its folder) runs once,
        // under the first of its names.
        var seen: Set<String> = []
        for saga in sagas.filter({ seen.insert(samePath($0)).inserted }).sorted() {
            let stem = String(saga.dropLast(".saga".count))
            let golden = stem + ".golden"
            let input = fm.fileExists(atPath: stem + ".input.jsonl") ? stem + ".input.jsonl" : nil
            let mocks = fm.fileExists(atPath: stem + ".mocks.jsonl") ? stem + ".mocks.jsonl" : nil
            var c = Case(saga: saga, golden: golden, input: input)
            c.mocks = mocks
            c.misnamed = misnamedCompanions(of: stem, in: &folders)
            if !fm.fileExists(atPath: golden) {
                guard missing, input != nil || mocks != nil || named.contains(samePath(saga)) || declaresASaga(saga)
                else {
                    continue
                }
                c.hasGolden = false
            }
            cases.append(c)
        }
        return cases
    }

    /// `path` as every spelling of it reads: `./x.saga`, `x.saga` and its absolute path are
    /// one program.
    private static func samePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The suffixes of the files a test reads beside its program, `X.saga`; a longer one
    /// before a shorter one it ends with.
    static let companionSuffixes = [".failures.golden", ".golden", ".input.jsonl", ".mocks.jsonl"]

    /// The program of a test's golden, input or mocks file (`X.saga` for `X.input.jsonl`), or
    /// `nil` if `path` is none of them.
    private static func program(companion path: String) -> String? {
        guard let suffix = companionSuffixes.first(where: path.hasSuffix) else {
            return nil
        }
        return path.dropLast(suffix.count) + ".saga"
    }

    /// The JSON files beside `stem`'s program, named as its companions are, that a test does
    /// not read.
    ///
    /// For program `X.saga`: `X.jsonl`, `X.input.json`, `X.inputs.jsonl`, `X.mock.jsonl`.
    /// `folders` keeps each folder's listing, read once.
    private static func misnamedCompanions(of stem: String, in folders: inout [String: [String]]) -> [String] {
        let slash = stem.lastIndex(of: "/")
        let folder = slash.map { String(stem[...$0]) } ?? ""
        let name = slash.map { String(stem[stem.index(after: $0)...]) } ?? stem
        if folders[folder] == nil {
            folders[folder] =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        }
        return (folders[folder] ?? []).filter { file in
            guard file.hasPrefix(name + "."), file.hasSuffix(".json") || file.hasSuffix(".jsonl") else { return false }
            if companionSuffixes.contains(String(file.dropFirst(name.count))) { return false }
            // Another program's companion (`X.v2.input.jsonl` is `X.v2.saga`'s) is not this one's.
            if let other = program(companion: folder + file), FileManager.default.fileExists(atPath: other) {
                return false
            }
            return true
        }.sorted().map { folder + $0 }
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

    /// A golden file's text as the transcript it stands for: a byte-order mark an editor put
    /// first is dropped, lines that end `\r\n` (as a checkout on Windows writes them) end
    /// `\n`, and a last line without its newline (or with a lone `\r`) has one.
    static func transcript(of golden: String) -> String {
        var text = SourceLoader.withoutByteOrderMark(golden)
        if text.contains("\r\n") { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
        if text.hasSuffix("\r") { text.removeLast() }
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
        // Read as a golden is, so that a golden written from it reads back the same: a logged
        // "\r\n" is a line break there.
        var result = Result(
            expected: expected, actual: transcript(of: io.stdout), errors: io.stderr, exitCode: code,
            mockProblems: io.mockProblems)
        result.isCut = io.transcriptIsFull
        result.stoppedByLimit = io.runStoppedByLimit
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
