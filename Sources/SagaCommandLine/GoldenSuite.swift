import Foundation

/// Golden-file tests: each `X.saga` with an `X.golden` beside it runs as
/// `sagarun run X.saga --virtual-time --print-actions --print-state --memory`
/// (with `--input X.input.jsonl` when that file exists), and its transcript must equal
/// the golden file. `sagarun test` and the package's own tests share this code.
public enum GoldenSuite {
    /// One golden test.
    public struct Case: Sendable, CustomStringConvertible {
        /// The program.
        public var saga: String
        /// The expected transcript.
        public var golden: String
        /// The input, when there is one.
        public var input: String?

        public var description: String { saga }
    }

    /// What a run gave.
    public struct Result: Sendable {
        public var expected: String
        public var actual: String
        /// Standard error of the run (diagnostics, failure reports).
        public var errors: String
        public var exitCode: Int32
        public var matches: Bool { expected == actual }
    }

    /// Every case under `paths` (files or folders, searched recursively), sorted by path.
    public static func discover(_ paths: [String]) -> [Case] {
        var sagas: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let base = URL(fileURLWithPath: path)
                guard let walker = fm.enumerator(atPath: path) else { continue }
                for case let relative as String in walker where relative.hasSuffix(".saga") {
                    sagas.append(base.appendingPathComponent(relative).path)
                }
            } else if path.hasSuffix(".saga") {
                sagas.append(path)
            }
        }
        var cases: [Case] = []
        for saga in Set(sagas).sorted() {
            let stem = String(saga.dropLast(".saga".count))
            let golden = stem + ".golden"
            guard fm.fileExists(atPath: golden) else { continue }
            let input = stem + ".input.jsonl"
            cases.append(Case(saga: saga, golden: golden, input: fm.fileExists(atPath: input) ? input : nil))
        }
        return cases
    }

    /// Runs one case through the same code as `sagarun run`.
    public static func run(_ c: Case) async -> Result {
        let io = CapturedIO()
        var args = ["run", c.saga, "--virtual-time", "--print-actions", "--print-state", "--memory"]
        if let input = c.input { args += ["--input", input] }
        let code = await SagaRunTool.main(args, io: io)
        let expected = (try? String(contentsOfFile: c.golden, encoding: .utf8)) ?? ""
        return Result(expected: expected, actual: io.stdout, errors: io.stderr, exitCode: code)
    }
}
