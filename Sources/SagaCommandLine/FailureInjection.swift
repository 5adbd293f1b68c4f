import Foundation
import SagaCore
import SagaHostLibrary
import SagaLanguage
import SagaPersistence
import SagaRuntime

/// `sagarun test --inject-failures`: reruns a program once per `call` it makes, with that one
/// call throwing an `InjectedFailure`, and reports for each run how the program ended, which
/// errors escaped, and which compensations ran.
///
/// With `twice`, each compensation runs twice, to show whether it is idempotent. The summary
/// can be kept as `X.failures.golden`.
package enum FailureInjection {
    /// The summary for one golden case (its input and mocks included), with paths relative to
    /// the program's folder, however the program was named, so that it can be kept as a golden
    /// file; and whether the program ran at all (it compiles, and its mocks can be read): a
    /// summary of why it did not is no result to keep or pass.
    package static func summary(for c: GoldenSuite.Case, twice: Bool) async -> (text: String, ran: Bool) {
        let compiled = Frontend(hostFunctions: HostLibrary.names).compile(path: c.saga)
        guard let program = compiled.program else {
            return ("does not compile\n" + compiled.renderedDiagnostics, false)
        }
        var mocksText: String?
        if let path = c.mocks {
            guard let text = TextFile.read(path) else {
                return ("cannot read the mocks file '\(path)': \(TextFile.whyUnreadable(path))\n", false)
            }
            mocksText = text
        }
        if let path = c.input, InputSource.file(path) == nil {
            return ("cannot read the input file '\(path)': \(TextFile.whyUnreadable(path))\n", false)
        }
        let baseline: Outcome
        do {
            baseline = try await run(program, c, mocks: mocksText, failingCall: nil, twice: twice)
        } catch {
            // `FILE:LINE:COLUMN: message`, as `sagarun run` says it.
            return ("\(c.mocks ?? "mocks"):\(error)\n", false)
        }
        var text = "\(baseline.calls) call\(baseline.calls == 1 ? "" : "s") without failures: \(baseline.ending)\n"
        text += Self.problemLines(baseline.mockProblems)
        for n in 0..<baseline.calls {
            guard let r = try? await run(program, c, mocks: mocksText, failingCall: n, twice: twice) else { break }
            text += "call #\(n + 1)\(r.failedCall.map { " (\($0))" } ?? "") fails: \(r.ending)\n"
            for error in r.escaped { text += "  escaped: \(error)\n" }
            text += Self.problemLines(r.mockProblems)
            text += "  compensations: \(r.compensations.isEmpty ? "none" : r.compensations.joined(separator: ", "))\n"
        }
        // Locations name the file as it was given: relative, absolute, or through `..`.
        let given = (c.saga as NSString).deletingLastPathComponent
        let folders = [URL(fileURLWithPath: c.saga).standardizedFileURL.deletingLastPathComponent().path, given]
        for folder in folders.sorted(by: { $0.count > $1.count }) where !folder.isEmpty {
            text = text.replacingOccurrences(of: folder + "/", with: "")
        }
        return (text, true)
    }

    /// The mocks' problems, a line each; the same problem again at once (a compensation run
    /// twice under `--twice`) is counted on its line rather than repeated.
    static func problemLines(_ problems: [String]) -> String {
        var text = ""
        var i = 0
        while i < problems.count {
            var n = 1
            while i + n < problems.count, problems[i + n] == problems[i] { n += 1 }
            text += "  mocks: \(problems[i])\(n > 1 ? " (\(n) times)" : "")\n"
            i += n
        }
        return text
    }

    private struct Outcome {
        var calls: Int
        var ending: String
        var escaped: [String]
        var compensations: [String]
        /// The calls that did not match the mocks (the lines a failure left untaken are no
        /// problem: the calls after it were not made).
        var mockProblems: [String]
        /// The call made to fail, and where (`api.charge at order.saga:12:5`).
        var failedCall: String?
    }

    /// One run of the case, with the `failingCall`-th call failing; the mocks, when there are
    /// any, answer the calls of the program's `extern` functions afresh for each run.
    private static func run(
        _ program: Program, _ c: GoldenSuite.Case, mocks: String?, failingCall: Int?, twice: Bool
    ) async throws -> Outcome {
        // The host library, with no permission, as under `sagarun test`: the mocks stand in.
        let library = HostLibrary(permissions: HostPermissions()).functions
        var host = library
        var mocked: HostMocks?
        if let mocks, let path = c.mocks {
            let lines = try HostMocks(jsonl: mocks, source: path)
            mocked = lines
            host = library.merging(
                lines.functions(failingCallsOf: program.externs.map(\.name).filter { library[$0] == nil }))
        }
        var options = Interpreter.Options(virtualTime: true)
        // A program that only feeds itself stops here as under `sagarun test`.
        options.maxTurnsWithoutInput = RunCommand.defaultMaxTurnsWithoutInput
        options.failingCall = failingCall
        options.compensationRuns = twice ? 2 : 1
        let output = BufferedOutput()
        let (interpreter, store) = RunCommand.interpreter(
            program, options: options, store: MemoryStore(), output: output, host: host)
        let input = c.input.flatMap { InputSource.file($0) }
        let status = await interpreter.run(input: input)
        await store.close()
        let mockProblems = mocked?.unexpectedCalls ?? []
        // A call that did not match the mocks fails the run, as under `sagarun run`.
        let ending: String
        switch status {
        case .success: ending = mockProblems.isEmpty ? "ended cleanly" : "a call did not match the mocks (exit 1)"
        case .sagaFailed: ending = "a saga failed (exit 1)"
        case .malformedInput: ending = "malformed input (exit 65)"
        }
        let escaped = output.errors.compactMap { $0.split(separator: "\n").first.map(String.init) }
            .filter { $0.hasPrefix("error: saga ") }
        return Outcome(
            calls: interpreter.callsMade, ending: ending, escaped: escaped, compensations: interpreter.compensationsRun,
            mockProblems: mockProblems, failedCall: interpreter.injectedFailureCall)
    }
}
