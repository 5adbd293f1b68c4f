import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A loop whose body has effects runs lowered too (`LoweredLoop`): a `take` of a type and a
/// `put` of a literal action are steps of their own; a `log`, a `throw` and the other `take`,
/// `put`, `select` and `delay` statements are run by the walk's `executeStatement` where they
/// stand. A task that blocks or yields there goes on lowered when it resumes. Each program
/// runs lowered and walked; both runs must print, fail, count steps and yield alike.
@Suite struct LoweredEffectLoopTests {
    /// Two sagas passing actions back and forth: puts that wake a taker (and so block),
    /// puts that wake none, stored takes and puts, a `where`, a `select`, a channel, a delay.
    static let pingPong = """
        state { pongs: 0 }
        reduce "pong" as a { state.pongs = state.pongs + 1 }
        saga main {
          var got = 0
          while got < 2 {
            let a = take "input" where it.n > got
            got = a.n
            log "input \\(got) at \\(now())"
          }
          fork {
            var n = 0
            loop {
              let p = take "ping"
              n = n + 1
              let sent = put "pong" { from: "child" }
              log "child got \\(p.n), sent \\(sent.type)"
              if n == 3 { break }
            }
            log "child done"
          }
          let ch = channel
          var i = 0
          var last = null
          while i < 3 {
            i = i + 1
            put "ping" { n: 1 }
            last = take "pong"
            put ch i
            let seen = select state.pongs
            log "main \\(i): \\(last.from), pongs \\(seen)"
            delay 5ms
          }
          while i > 0 { let m = take ch; i = i - 1; log "channel \\(m)" }
        }
        """

    static let input = [
        #"{"type":"input","n":0}"#, #"{"type":"input","n":1}"#, #"{"type":"input","n":2}"#,
    ]

    @Test func takesAndPutsAsWalked() async {
        let run = await runLoweredAndWalked(Self.pingPong, input: Self.input) { $0.printActions = true }
        #expect(run.errors == [])
        #expect(run.status == .success)
        let logs = run.lines.filter { !$0.hasPrefix("action ") }
        // The `pong` the child puts is processed after main, woken from its `put`, takes it.
        #expect(
            logs == [
                "input 1 at 0", "input 2 at 0",
                "main 1: child, pongs 1", "child got 1, sent pong",
                "main 2: child, pongs 2", "child got 1, sent pong",
                "main 3: child, pongs 3", "child got 1, sent pong", "child done",
                "channel 1", "channel 2", "channel 3",
            ])
        #expect(run.state["pongs"] == .int(3))
    }

    @Test func yieldsWhereTheWalkYields() async {
        let unyielded = await runLoweredAndWalked(Self.pingPong, input: Self.input)
        for budget in 1...9 {
            let run = await runLoweredAndWalked(Self.pingPong, input: Self.input) { $0.yieldAfterSteps = budget }
            #expect(run.errors == [])
            #expect(run.lines.sorted() == unyielded.lines.sorted())
        }
    }

    /// Steps without an effect are counted to the limit as walked; a `put` processed at once
    /// starts the count again, as any effect does.
    @Test func theStepLimitStopsWhereTheWalkDoes() async {
        let run = await runLoweredAndWalked(
            """
            saga main {
              var i = 0
              while i < 20 { i = i + 1; put "tick" }
              var j = 0
              loop { j = j + 1; log j }
            }
            """
        ) { $0.maxSteps = 7 }
        // Since the last `put`: the `while` turn that ends it, `var j`, the `loop`, then two
        // steps a turn and the `log`.
        #expect(run.lines == ["1"])
        #expect(run.errors.first?.contains("the task ran 7 steps without an effect") == true)
    }

    /// A task blocked on a `take` in a lowered loop is cancelled where it waits: its `finally`
    /// runs, as walked.
    @Test func cancelledWhileBlockedInALoweredLoop() async {
        let run = await runLoweredAndWalked(
            """
            saga main {
              let t = fork {
                var n = 0
                try {
                  loop { let a = take "job"; n = n + a.n; put "did" }
                } finally { log "worker stopped at \\(n), cancelled \\(cancelled)" }
              }
              let d = take "did"
              let e = take "did"
              cancel t
              log "main done"
            }
            """, input: [#"{"type":"job","n":2}"#, #"{"type":"job","n":3}"#, #"{"type":"job","n":4}"#]
        ) { $0.printActions = true }
        #expect(run.errors == [])
        #expect(run.lines.contains("worker stopped at 5, cancelled true"))
        #expect(run.lines.filter { !$0.hasPrefix("action ") }.last == "main done")
    }

    /// A `throw` in a lowered loop leaves it for the enclosing `catch`, with the trace the walk
    /// gives; an uncaught one fails the saga at the statement.
    @Test func throwsLeaveTheLoopAsWalked() async {
        let caught = await runLoweredAndWalked(
            """
            saga main {
              try {
                while true { let a = take "x"; log "x \\(a.n)"; throw "bad \\(a.n)" }
              } catch e { log "caught \\(e.message)" }
              loop { let b = take "x"; put "echo" { n: b.n }; throw {kind: "Late", message: "at \\(b.n)"} }
            }
            """, input: [#"{"type":"x","n":1}"#, #"{"type":"x","n":2}"#]
        ) { $0.printActions = true }
        #expect(caught.lines.contains("caught bad 1"))
        #expect(caught.lines.contains(#"action {"n":2,"type":"echo"}"#))
        #expect(caught.errors.first?.contains("test.saga:5:") == true)
    }

    /// The loops of this file lower: a `take` of a type and a `put` of a literal action are
    /// steps of their own, and a task resumed in the body goes on at its next statement's step.
    @Test func takesAndPutsAreStepsOfTheirOwn() async throws {
        let program = try #require(
            Frontend().compile(
                source: """
                    saga main { var n = 0; loop { n = n + 1; let a = take "go"; put "went" } }
                    """, path: "t.saga"
            ).program)
        let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: BufferedOutput())
        _ = await interpreter.run(input: InputSource(lines: [#"{"type":"go"}"#, #"{"type":"go"}"#]))
        #expect(interpreter.loweredLoops.count == 1)
        let loop = try #require(interpreter.loweredLoops.values.first)
        #expect(loop.steps.map(\.kind) == [.store, .take, .put])
        #expect(loop.bodySteps == [0, 1, 2])
    }
}
