import Foundation
import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `let x = select EXPR`, and `let x = call f(…)` or `x = call f(…)` of a function whose body
/// is one `return`, run where the statement is, without the effect's usual way through the
/// interpreter (`Interpreter+Statements.swift`).
///
/// A traced run takes the same way and also records each effect, so the two runs of each
/// program here must print, fail and end alike.
@Suite struct DirectEffectStatementTests {
    private func run(
        _ source: String, traced: Bool, _ configure: (inout Interpreter.Options) -> Void = { _ in }
    ) async -> ConfiguredRun? {
        guard let program = Frontend().compile(source: source, path: "test.saga").program else {
            Issue.record("does not compile")
            return nil
        }
        let output = BufferedOutput()
        var options = Interpreter.Options(virtualTime: true)
        configure(&options)
        let interpreter = Interpreter(program: program, options: options, output: output)
        let tracePath = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: tracePath) }
        if traced {
            interpreter.tracer = ChromeTrace(path: tracePath)
            #expect(interpreter.tracer != nil)
        }
        let status = await interpreter.run()
        interpreter.tracer?.close()
        return ConfiguredRun(lines: output.lines, errors: output.errors, status: status, state: interpreter.state)
    }

    @Test func selectsAndCallsIntoVariablesRunAlikeTracedOrNot() async {
        let source = """
            state { n: 0, items: [1, 2] }
            reduce "add" as a { state.n = state.n + a.by }
            func twice(x) { return x * 2 }
            func deep(o) { return o.a.b }
            saga main {
              let a = select state.n
              put "add" { by: 5 }
              let b = select state.n
              var c = call twice(b)
              c = call twice(c)
              log [a, b, c]
              fork { let s = select state.items; log s; put "add" { by: 1 } }
              let d = select state.n
              log d
              try { let e = select state.items.nope } catch err { log "caught \\(err.message)" }
              try { c = call deep({a: 1}) } catch err { log "caught \\(err.message), c is \\(c)" }
              let f = select state.n.deeper
              log "not reached"
            }
            """
        guard let plain = await run(source, traced: false), let traced = await run(source, traced: true) else { return }
        #expect(plain == traced)
        #expect(
            plain.lines == [
                "[0,5,20]", "[1,2]", "5", "caught cannot read '.nope' of a list",
                "caught cannot read '.b' of a number, c is 20",
            ])
        #expect(plain.errors.first?.contains("at saga main (test.saga:17:3)") == true)
    }

    /// `select state.key` reads the field without the evaluator: a missing key is null, and a
    /// state that is not a record fails as the evaluator fails.
    @Test func selectingAFieldOfTheStateReadsAsTheEvaluatorReads() async {
        let source = """
            state { n: 1 }
            reduce "zap" as a { state = 5 }
            saga main {
              let n = select state.n
              let missing = select state.missing
              let whole = select state
              log [n, missing, whole]
              put "zap"
              try { let x = select state.n } catch e { log "caught \\(e.message)" }
              let y = select state
              log y
            }
            """
        guard let plain = await run(source, traced: false), let traced = await run(source, traced: true) else { return }
        #expect(plain == traced)
        #expect(plain.lines == [#"[1,null,{"n":1}]"#, "caught cannot read '.n' of a number", "5"])
    }

    /// The direct statements count their steps as the general way does: under a step limit
    /// and with tasks yielding every few steps, traced and plain runs agree.
    @Test func stepsCountAlikeUnderLimitsAndYields() async {
        let source = """
            state { n: 0 }
            reduce "add" as a { state.n = state.n + a.by }
            func twice(x) { return x * 2 }
            saga a {
              var i = 0
              try {
                while i < 100 { let s = select state.n; i = call twice(i + 1); put "add" { by: 1 }; log "a \\(i) \\(s)" }
              } catch e { log "a stopped: \\(e.kind) at \\(i)" }
            }
            saga b {
              var j = 0
              try { while true { j = call twice(j + 1); let s = select state.n } } catch e { log "b stopped: \\(e.kind)" }
            }
            """
        for configure in [
            { (o: inout Interpreter.Options) in o.maxSteps = 7 },
            { (o: inout Interpreter.Options) in
                o.yieldAfterSteps = 2
                o.maxSteps = 40
            },
        ] {
            guard let plain = await run(source, traced: false, configure),
                let traced = await run(source, traced: true, configure)
            else { return }
            #expect(plain == traced)
            #expect(plain.lines.contains { $0.hasPrefix("b stopped: ") })
        }
    }
}
