import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A loop whose body has effects runs compiled too (`Compiler+Sagas.swift`).
///
/// A `take` of a type and a `put` of a literal action are steps of their own; a `log`, a
/// `throw` and the other `take`, `put`, `select` and `delay` statements are run by
/// `executeStatement` where they stand.
///
/// A task that blocks or yields there goes on in its code when it resumes. Each program runs
/// with and without the short cuts; both runs must print, fail, count steps and yield alike.
@Suite struct CompiledEffectLoopTests {
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

    @Test func takesAndPutsInTheCode() async {
        let run = await runWithAndWithoutShortCuts(Self.pingPong, input: Self.input) { $0.printActions = true }
        #expect(run.errors == [])
        #expect(run.status == .success)
        let logs = run.lines.filter { !$0.hasPrefix("action ") }
        // The `pong` the child puts is processed after main, woken from its `put`, takes it;
        // main's `put ch` then waits behind the child, woken after main (as redux-saga orders
        // these, checked against redux-saga 1.4.3).
        #expect(
            logs == [
                "input 1 at 0", "input 2 at 0",
                "child got 1, sent pong", "main 1: child, pongs 1",
                "child got 1, sent pong", "main 2: child, pongs 2",
                "child got 1, sent pong", "child done", "main 3: child, pongs 3",
                "channel 1", "channel 2", "channel 3",
            ])
        #expect(run.state["pongs"] == .int(3))
    }

    @Test func yieldsWhereTheWalkYields() async {
        let unyielded = await runWithAndWithoutShortCuts(Self.pingPong, input: Self.input)
        for budget in 1...9 {
            let run = await runWithAndWithoutShortCuts(Self.pingPong, input: Self.input) { $0.yieldAfterSteps = budget }
            #expect(run.errors == [])
            #expect(run.lines.sorted() == unyielded.lines.sorted())
        }
    }

    /// Steps without an effect are counted to the limit; a `put` processed at once starts the
    /// count again, as any effect does.
    @Test func theStepLimitStopsWhereTheStatementsSay() async {
        let run = await runWithAndWithoutShortCuts(
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
        #expect(run.errors.first?.contains("the task ran 7 steps without waiting") == true)
    }

    /// A task blocked on a `take` in a compiled loop is cancelled where it waits: its `finally`
    /// runs.
    @Test func cancelledWhileBlockedInACompiledLoop() async {
        let run = await runWithAndWithoutShortCuts(
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

    /// A `throw` in a compiled loop leaves it for the enclosing `catch`, with the trace of the
    /// `throw`; an uncaught one fails the saga at the statement.
    @Test func throwsLeaveTheLoop() async {
        let caught = await runWithAndWithoutShortCuts(
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

    /// The loops of this file run from code: the turn and the assignment's statement are
    /// steps, the assignment one instruction, and the `take` and the `put` instructions that
    /// take their statements' steps first; the next turn's step is taken with the jump back.
    @Test func takesAndPutsAreStatementsOfTheCode() async throws {
        let program = try #require(
            Frontend().compile(
                source: """
                    saga main { var n = 0; loop { n = n + 1; let a = take "go"; put "went" } }
                    """, path: "t.saga"
            ).program)
        let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: BufferedOutput())
        _ = await interpreter.run(input: InputSource(lines: [#"{"type":"go"}"#, #"{"type":"go"}"#]))
        #expect(interpreter.codeStore.entries.count == 1)
        let code = try #require(interpreter.codeStore.entries.values.first?.code)
        #expect(code.sites.count == 2)
        // `var n = 0`, the loop's statement step, then each turn's.
        #expect(
            code.instructions == [
                .step, .move(.constant(0), into: .slot(0)), .step, .step, .step, .addToSlot(slot: 0, .constant(1)),
                .take(0), .put(0), .stepAndJump(to: 4),
            ])
    }

    /// Where a compiled loop with effects meets the rest: a `for` loop resumed after a wait,
    /// an arm's step before a `take`, a call by value that fails and runs inline, a recursive
    /// function's loop, a `put` whose reducer fails, a
    /// stored path that fails when the `take` resumes, END while blocked in a called function.
    static let edges: [(source: String, input: [String])] = [
        (
            """
            saga main {
              for x in [1, 2, 3] { let a = take "t"; put "u" { n: x }; log "\\(x) \\(a.n)" }
              log "done"
            }
            """, ticks(4)
        ),
        (
            """
            saga main {
              var i = 0
              while i < 4 { if i > 0 { i = i + 1 } else { i = 1 }; let a = take "t"; log "\\(i) \\(a.n)" }
            }
            """, ticks(5)
        ),
        (
            """
            func inverse(x) { return 10 / x }
            saga main {
              var i = 2
              try {
                while true { let a = take "t"; i = i - 1; let r = call inverse(i); log "r \\(r)" }
              } catch e { log "caught \\(e.kind)" }
            }
            """, ticks(4)
        ),
        (
            """
            func f(d) { loop { let a = take "t"; put "seen" { d: d }; if d > 0 { let r = call f(d - 1) }; return a.n } }
            saga main { let v = call f(2); log "v \\(v)" }
            """, ticks(4)
        ),
        (
            """
            state { n: 0 }
            reduce "bad" as a { state.n = state.n + a.x }
            saga main {
              try { loop { let a = take "t"; put "bad" { x: "s" }; log "after put \\(a.n)" } } catch e { log "caught" }
            }
            """, ticks(3)
        ),
        (
            """
            saga main {
              var r = 5
              try { loop { r.x = take "t"; log "stored" } } catch e { log "caught \\(e.message)" }
              loop { r.x = take "t"; log "not stored" }
            }
            """, ticks(3)
        ),
        (
            """
            func wait() { var n = 0; loop { let a = take "t"; n = n + a.n; log "t \\(a.n)" } }
            saga main { let v = call wait(); log "ended with \\(v)" }
            """, ticks(3)
        ),
    ]

    static func ticks(_ count: Int) -> [String] {
        (1...count).map { #"{"type":"t","n":"# + "\($0)}" }
    }

    @Test(arguments: 0..<edges.count)
    func eachEdge(_ index: Int) async {
        let (source, input) = Self.edges[index]
        let plain = await runWithAndWithoutShortCuts(source, input: input) { $0.printActions = true }
        #expect(!plain.lines.isEmpty)
        for budget in [1, 2, 3, 4, 5, 7] {
            _ = await runWithAndWithoutShortCuts(source, input: input) { $0.yieldAfterSteps = budget }
        }
        for limit in [2, 3, 4, 5, 6, 8] {
            _ = await runWithAndWithoutShortCuts(source, input: input) { $0.maxSteps = limit }
        }
    }

    /// The loops and bodies of the watchers are the checker's, made once: however many actions
    /// start bodies, the code kept is the same few, the program's own and each watcher's loop and
    /// body.
    @Test func watchersLoopsAreNotRemembered() async throws {
        let source = """
            saga main {
              latest "a" as x { delay 1ms }
              leading "a" as x { delay 1ms }
              throttle 5ms "a" as x { log "throttled" }
              debounce 5ms "a" as x { log "debounced" }
              every "a" as x { log "every" }
              loop { let s = take "stop"; put "stopped" }
            }
            """
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        var kept: [Int] = []
        for actions in [1, 30] {
            let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: BufferedOutput())
            let lines = Array(repeating: #"{"type":"a"}"#, count: actions) + [#"{"type":"stop"}"#]
            _ = await interpreter.run(input: InputSource(lines: lines))
            kept.append(interpreter.codeStore.entries.count)
        }
        #expect(kept[0] == kept[1])
        #expect((1...11).contains(kept[1]))
    }
}
