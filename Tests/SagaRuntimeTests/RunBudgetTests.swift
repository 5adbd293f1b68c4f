import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `Options.maxRunSteps`: a program that never ends, on the virtual clock, still ends.
@Suite struct RunBudgetTests {
    /// Runs `source` on the virtual clock with a run-wide budget of `steps`.
    private func run(
        _ source: String, steps: Int, input: [String] = []
    ) async -> (
        lines: [String], errors: [String], status: RunStatus?
    ) {
        guard let program = Frontend().compile(source: source, path: "budget.saga").program else {
            return ([], ["does not compile"], nil)
        }
        var options = Interpreter.Options(virtualTime: true)
        options.maxRunSteps = steps
        let output = BufferedOutput()
        let interpreter = Interpreter(program: program, options: options, output: output)
        let status = await interpreter.run(input: input.isEmpty ? nil : InputSource(lines: input))
        return (output.lines, output.errors, status)
    }

    /// The budget counts inside a task's turn: a loop with no effect that blocks stops at the
    /// budget, not when the task ends or the per-task limit is met, so that a loop of calls
    /// that never block cannot run on for ever.
    @Test(arguments: [
        "saga main { loop { log 1 } }",
        "saga main { loop { let s = select } }",
        "func f(x) { return x + 1 }\nsaga main { var i = 0\n loop { i = call f(i) } }",
        "func f(x) { var y = x\n y = y + 1\n return y }\nsaga main { var i = 0\n loop { i = call f(i) } }",
        "saga main { var i = 0\n while true { i = i + 1\n if i < 0 { break } } }",
    ])
    func aLoopThatNeverBlocksStopsAtTheBudget(source: String) async {
        let result = await run(source, steps: 1_000)
        #expect(result.status == .sagaFailed)
        #expect(
            result.errors == [
                "error: the run took more than 1000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
        #expect(result.lines.count <= 1_000)
    }

    /// A run stopped while a large `all` waits lets go of its entries once each: each entry
    /// leads to every other, and gathering them all from each took memory and time that grew
    /// with the square of their number (100,000 entries asked for tens of gigabytes).
    @Test func aRunStoppedDuringALargeAllEnds() async {
        let result = await run(
            "saga main {\n let b = all for x in range(100000) { delay x % 5 }\n log len(b)\n}", steps: 200_000)
        #expect(result.status == .sagaFailed)
        #expect(
            result.errors == [
                "error: the run took more than 200000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
        #expect(result.lines.isEmpty)
    }

    @Test func anEndlessTimerLoopStops() async {
        let result = await run(
            "saga main { var n = 0\n loop { delay 1s; n = n + 1; if n % 100 == 0 { log n } } }", steps: 1_000)
        #expect(result.status == .sagaFailed)
        #expect(
            result.errors == [
                "error: the run took more than 1000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
        #expect(!result.lines.isEmpty && result.lines.count < 10)
    }

    @Test func anEndlessPutLoopStops() async {
        let result = await run(
            """
            state { n: 0 }
            reduce "tick" as a { state.n = state.n + 1 }
            saga main { loop { put {type: "tick"} } }
            """, steps: 5_000)
        #expect(result.status == .sagaFailed)
        #expect(
            result.errors == [
                "error: the run took more than 5000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }

    /// A watcher that feeds itself stops at the budget, whether its body runs in the watcher's
    /// turn or as a task of its own, and whatever the watcher.
    @Test(arguments: [
        #"every "x" as a { put "x" }"#,
        #"every "x" as a { log a.n; put "x" { n: a.n + 1 } }"#,
        #"latest "x" as a { put "x" }"#,
        #"leading "x" as a { put "y" }; every "y" as y { put "x" }"#,
        #"every "x" as a { delay 1; put "x" }"#,
    ])
    func aWatcherThatFeedsItselfStops(watcher: String) async {
        let result = await run("saga main { \(watcher) }", steps: 5_000, input: [#"{"type":"x","n":0}"#])
        #expect(result.status == .sagaFailed)
        #expect(
            result.errors == [
                "error: the run took more than 5000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }

    @Test func reducerLoopsCountToo() async {
        let result = await run(
            """
            reduce "tick" as a { var i = 0\n while i < 1000 { i = i + 1 } }
            saga main { for i in range(100) { put {type: "tick"} } }
            """, steps: 10_000)
        #expect(
            result.errors == [
                "error: the run took more than 10000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }

    /// A function whose body is one `return` is evaluated with no frame, but its call still
    /// counts the two steps an inline call takes (the call and the `return`): the run stops
    /// where it would stop with two plain statements in its place. (The budget is checked
    /// between pieces of work, hence the `delay`.)
    @Test func aValueFunctionCountsTheStepsOfACall() async {
        let called = await run(
            "func inc(x) { return x + 1 }\nsaga main { var n = 0\n loop { n = call inc(n); log n; delay 1 } }",
            steps: 1_000)
        let inline = await run(
            "saga main { var n = 0\n loop { n = n + 1; var z = 0; log n; delay 1 } }", steps: 1_000)
        #expect(called.status == .sagaFailed)
        #expect(called.lines.count > 100)
        #expect(called.lines == inline.lines)
    }

    @Test func aProgramWithinItsBudgetIsNotStopped() async {
        let result = await run(
            "saga main { take \"go\"; delay 1000000000s; log \"done\" }", steps: 1_000, input: [#"{"type":"go"}"#])
        #expect(result.status == .success)
        #expect(result.lines == ["done"])
        #expect(result.errors.isEmpty)
    }

    /// Each input line's dispatch is a step of the run, as each `put`'s is: 50 lines, each
    /// waking the taker, take about 255 steps, 50 of them the lines' dispatches.
    @Test func inputLinesCountAsStepsToo() async {
        let lines = Array(repeating: #"{"type":"x"}"#, count: 50)
        let source = "saga main { for i in range(50) { take \"x\" } }"
        let over = await run(source, steps: 240, input: lines)
        #expect(
            over.errors == [
                "error: the run took more than 240 steps; it was stopped; raise the limit with --max-run-steps"
            ])
        let within = await run(source, steps: 300, input: lines)
        #expect(within.errors.isEmpty)
        #expect(within.status == .success)
    }

    /// A reducer's loop takes from the run's steps too: an endless one stops the run at the
    /// budget, rolled back, with nothing after it, rather than at the reducer's own limit of
    /// 100,000,000 turns.
    @Test func aReducersEndlessLoopStopsAtTheBudget() async throws {
        let source = """
            state { n: 0 }
            reduce "spin" as a { while true { state.n = state.n + 1 } }
            saga main { put "spin"; log "after" }
            """
        let program = try #require(Frontend().compile(source: source, path: "budget.saga").program)
        var options = Interpreter.Options(virtualTime: true)
        options.maxRunSteps = 1_000
        options.printState = true
        let output = BufferedOutput()
        let status = await Interpreter(program: program, options: options, output: output).run()
        #expect(status == .sagaFailed)
        #expect(output.lines == [#"state {"n":0}"#])
        #expect(
            output.errors == [
                "error: the run took more than 1000 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }

    /// A run stopped by its budget while a host call is in flight ends: the call is cancelled,
    /// and nothing runs after (a call that would answer after an hour, or never, holds nothing
    /// up).
    @Test func aRunStoppedWhileAHostCallIsInFlightEnds() async throws {
        let source = """
            saga main {
              fork { let r = call slow(); log "answered" }
              var i = 0
              while i < 1000 { i = i + 1 }
              log "done"
            }
            """
        var host = HostFunctions()
        host.register("slow") { _ in
            try await Task.sleep(for: .seconds(3600))
            return .null
        }
        let program = try #require(
            Frontend(hostFunctions: host.names).compile(source: source, path: "budget.saga").program)
        var options = Interpreter.Options(virtualTime: true)
        options.maxRunSteps = 100
        let output = BufferedOutput()
        let status = await Interpreter(program: program, options: options, host: host, output: output).run()
        #expect(status == .sagaFailed)
        #expect(output.lines.isEmpty)
        #expect(
            output.errors == [
                "error: the run took more than 100 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }
}
