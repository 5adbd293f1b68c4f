import Foundation
import SagaCore
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
    /// The summary for one golden case (its input included), with paths relative to the
    /// program's folder so that it can be kept as a golden file.
    package static func summary(for c: GoldenSuite.Case, twice: Bool) async -> String {
        let compiled = Frontend().compile(path: c.saga)
        let folder = URL(fileURLWithPath: c.saga).deletingLastPathComponent().path + "/"
        guard let program = compiled.program else { return "does not compile\n" + compiled.renderedDiagnostics }
        let baseline = await run(program, c, failingCall: nil, twice: twice)
        var text = "\(baseline.calls) call\(baseline.calls == 1 ? "" : "s") without failures: \(baseline.ending)\n"
        for n in 0..<baseline.calls {
            let r = await run(program, c, failingCall: n, twice: twice)
            text += "call #\(n + 1) fails: \(r.ending)\n"
            for error in r.escaped { text += "  escaped: \(error)\n" }
            text += "  compensations: \(r.compensations.isEmpty ? "none" : r.compensations.joined(separator: ", "))\n"
        }
        return text.replacingOccurrences(of: folder, with: "")
    }

    private struct Outcome {
        var calls: Int
        var ending: String
        var escaped: [String]
        var compensations: [String]
    }

    private static func run(_ program: Program, _ c: GoldenSuite.Case, failingCall: Int?, twice: Bool) async -> Outcome
    {
        var options = Interpreter.Options(virtualTime: true)
        options.failingCall = failingCall
        options.compensationRuns = twice ? 2 : 1
        let output = BufferedOutput()
        let (interpreter, store) = RunCommand.interpreter(
            program, options: options, store: MemoryStore(), output: output)
        let input = c.input.flatMap { InputSource.file($0) }
        let status = await interpreter.run(input: input)
        await store.close()
        let ending: String
        switch status {
        case .success: ending = "ended cleanly"
        case .sagaFailed: ending = "a saga failed (exit 1)"
        case .malformedInput: ending = "malformed input (exit 65)"
        }
        let escaped = output.errors.compactMap { $0.split(separator: "\n").first.map(String.init) }
            .filter { $0.hasPrefix("error: saga ") }
        return Outcome(
            calls: interpreter.callsMade, ending: ending, escaped: escaped, compensations: interpreter.compensationsRun)
    }
}
