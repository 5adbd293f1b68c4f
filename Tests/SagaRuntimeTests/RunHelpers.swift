import SagaCore
import SagaLanguage
@_spi(Testing) import SagaRuntime
import Testing

/// Compiles `source` and runs it on the virtual clock; returns the transcript lines, the
/// error reports and the status.
func runSaga(
    _ source: String, input: [String] = [], host: HostFunctions = HostFunctions(), printActions: Bool = false,
    timestamps: Bool = false, virtualTime: Bool = true
) async -> (lines: [String], errors: [String], status: RunStatus?) {
    let compiled = Frontend(hostFunctions: host.names).compile(source: source, path: "test.saga")
    guard let program = compiled.program else {
        return ([], [compiled.renderedDiagnostics], nil)
    }
    let output = BufferedOutput()
    let interpreter = Interpreter(
        program: program,
        options: .init(virtualTime: virtualTime, printActions: printActions, timestamps: timestamps), host: host,
        output: output)
    let status = await interpreter.run(input: input.isEmpty ? nil : InputSource(lines: input))
    return (output.lines, output.errors, status)
}

/// What a run printed, how it ended and the state it left.
struct ConfiguredRun: Equatable {
    var lines: [String]
    var errors: [String]
    var status: RunStatus?
    var state: Value
}

/// Compiles `source` and runs it on the virtual clock with the options `configure` sets.
func runConfigured(
    _ source: String, input: [String] = [], _ configure: (inout Interpreter.Options) -> Void = { _ in }
) async -> ConfiguredRun {
    guard let program = Frontend().compile(source: source, path: "test.saga").program else {
        Issue.record("does not compile")
        return ConfiguredRun(lines: [], errors: [], status: nil, state: .null)
    }
    var options = Interpreter.Options(virtualTime: true)
    configure(&options)
    let output = BufferedOutput()
    let interpreter = Interpreter(program: program, options: options, output: output)
    let status = await interpreter.run(input: input.isEmpty ? nil : InputSource(lines: input))
    return ConfiguredRun(lines: output.lines, errors: output.errors, status: status, state: interpreter.state)
}

/// The program's run with the interpreter's short cuts (actions processed on the spot,
/// first turns at once, blocks without a task), after checking that its run without them is
/// the same.
func runWithAndWithoutShortCuts(
    _ source: String, input: [String] = [], configure: @escaping (inout Interpreter.Options) -> Void = { _ in }
) async -> ConfiguredRun {
    let withShortCuts = await runConfigured(source, input: input, configure)
    let withoutShortCuts = await runConfigured(source, input: input) {
        configure(&$0)
        $0.shortCuts = false
    }
    #expect(withShortCuts == withoutShortCuts)
    return withShortCuts
}

/// Runs `source` with and without short cuts (see ``runWithAndWithoutShortCuts(_:input:configure:)``) under
/// each step limit in `limits`, then under the yield budgets 1, 2, 3, 5 and 8 (with
/// `maxSteps`, if given, for a program that may loop without end).
func runUnderLimitsWithAndWithoutShortCuts(_ source: String, limits: ClosedRange<Int>, maxSteps: Int? = nil) async {
    for limit in limits {
        _ = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
    }
    for budget in [1, 2, 3, 5, 8] {
        _ = await runWithAndWithoutShortCuts(source) {
            $0.yieldAfterSteps = budget
            if let maxSteps { $0.maxSteps = maxSteps }
        }
    }
}
