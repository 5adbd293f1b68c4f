import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Compiled loops at their edges: loops that never turn, failures inside arms and called
/// functions, cancellation while yielded, `return`, nested `if`s, and which loops compile at
/// all.
///
/// As in ``CompiledLoopTests``, each program runs with and without the short cuts, and both runs
/// must print, fail, count and yield alike.
@Suite struct CompiledLoopEdgeTests {
    /// The edges: loops that never turn, empty arms, `continue` last, failures inside arms and
    /// in a called function (the trace names it), a string past `--max-length`, and a condition
    /// that fails at once inside `try`/`finally`.
    @Test func edgesAndFailures() async {
        let source = """
            func one() { return 1 }
            func inverse(x) { return 10 / x }
            func countdown(n) {
              var i = n
              var r = 0
              while i > -1 { i = i - 1; if i < 5 { r = call inverse(i) } }
              return r
            }
            saga main {
              var i = 0
              while false { i = i + 1 }
              for x in [] { i = i + 1 }
              for k in {b: 1, a: 2, c: 3} { i = i + 1; if k == "b" { break } }
              var e = 0
              while e < 3 { e = e + 1; if e == 2 { } else { } }
              var c = 0
              loop { c = c + 1; if c > 3 { break }; continue }
              log "\\(i) \\(e) \\(c)"
              var calls = 0
              var n = 0
              try {
                while n < 6 { n = n + 1; if n > 2 { let x = call one(); calls = calls + x }; calls = calls + 0 }
              } catch err { log "\\(err.kind) at n = \\(n), calls = \\(calls)" }
              var text = "ab"
              try { while true { text = text + text } } catch err { log "\\(err.kind): \\(len(text))" }
              var limit = "none"
              try { while 0 < limit { limit = 1 } } catch err { log "first turn: \\(err.message)" } finally { log "finally" }
              let r = call countdown(7)
              log "not reached \\(r)"
            }
            """
        let plain = await runWithAndWithoutShortCuts(source) { $0.maxLength = 100 }
        #expect(
            plain.lines == [
                "2 3 4", "RangeError: 64", "first turn: cannot compare number and string", "finally",
            ])
        #expect(plain.errors.first?.contains("division by zero") == true)
        #expect(plain.errors.joined().contains("at func inverse"))
        #expect(plain.errors.joined().contains("called by func countdown"))
        for failing in [0, 2, 3, 5, 7] {
            let injected = await runWithAndWithoutShortCuts(source) {
                $0.maxLength = 100
                $0.failingCall = failing
            }
            #expect(injected.lines.count >= 3)
        }
        let shallow = await runWithAndWithoutShortCuts(source) {
            $0.maxLength = 100
            $0.maxCallDepth = 1
        }
        #expect(shallow.errors.first?.contains("calls nest more than 1 deep") == true)
    }

    /// A `while` loop's condition that fails at a later turn, where the code takes the turn's
    /// step and test in one instruction, fails at the condition's line, caught by a `try`
    /// around the loop, after the step limits and yields of the turns before.
    @Test func aConditionThatFailsAtALaterTurnFailsAtItsLine() async {
        let source = """
            saga main {
              var n = 0
              var limit = 5
              try {
                while n < limit {
                  n = n + 1
                  if n == 2 { limit = "x" }
                }
              } catch err { log "caught at n = \\(n): \\(err.message)" }
              limit = 5
              while n < limit {
                n = n + 1
                if n == 4 { limit = "x" }
              }
            }
            """
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(plain.lines == ["caught at n = 2: cannot compare number and string"])
        #expect(plain.errors.count == 1)
        #expect(plain.errors.first?.contains("(test.saga:11:9)") == true)
        for limit in 2...20 {
            _ = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
        }
        for budget in [1, 2, 3] {
            _ = await runWithAndWithoutShortCuts(source) { $0.yieldAfterSteps = budget }
        }
    }

    /// Calls of one-`return` functions made in a loop's code do what calls do: an
    /// argument read twice, computed arguments, values of every kind, a failure inside the
    /// function (reported at the function), the injected failure of any call, the depth
    /// limit, step limits and yields.
    @Test func callsMadeInTheCode() async {
        let source = """
            func sq(x) { return x * x }
            func pair(a, b) { return [a, b, {sum: a + b}] }
            func first(a) { return a }
            func name(r) { return "\\(r.first) \\(r.last)" }
            func half(n) { return 10 / n }
            saga main {
              var i = 0
              var acc = []
              while i < 4 {
                let s = call sq(i + 1)
                let p = call pair(s, i)
                let f = call first(null)
                let g = call first(p)
                let n = call name({first: "a", last: i})
                acc = acc + [s, p, f, g, n]
                i = i + 1
              }
              log "\\(acc)"
              var k = 3
              while k > -2 { let h = call half(k); log "h \\(h)"; k = k - 1 }
            }
            """
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(plain.lines.count == 4)
        #expect(plain.lines.first?.hasPrefix(#"[1,[1,0,{"sum":1}],null,[1,0,{"sum":1}],"a 0",4,"#) == true)
        #expect(plain.errors.first?.contains("division by zero") == true)
        #expect(plain.errors.joined().contains("at func half"))
        for failing in [0, 1, 4, 7, 12, 21] {
            let injected = await runWithAndWithoutShortCuts(source) { $0.failingCall = failing }
            #expect(injected.errors.first?.contains("injected failure") == true)
        }
        let shallow = await runWithAndWithoutShortCuts(source) { $0.maxCallDepth = 0 }
        #expect(shallow.errors.first?.contains("calls nest more than 0 deep") == true)
        for limit in [3, 8, 13, 21, 34] {
            _ = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
        }
        for budget in [1, 2, 5] {
            _ = await runWithAndWithoutShortCuts(source) { $0.yieldAfterSteps = budget }
        }
    }

    /// A task cancelled while it has yielded inside a compiled loop's arm runs its `finally`
    /// with the loop's variables as the statements before left them.
    @Test func cancelledWhileYieldedInALoop() async {
        for budget in [3, 4, 5, 7] {
            let run = await runWithAndWithoutShortCuts(
                """
                func spin() {
                  var i = 0
                  try {
                    while i < 1000 { i = i + 1; if i % 2 == 0 { i = i + 0; i = i + 0 }; i = i + 0 }
                  } finally { log "spin at \\(i), cancelled \\(cancelled)" }
                }
                saga main {
                  let t = fork spin()
                  var j = 0
                  while j < 4 { j = j + 1 }
                  cancel t
                  log "main done"
                }
                """
            ) { $0.yieldAfterSteps = budget }
            #expect(run.lines.count == 2)
            #expect(run.lines.contains("main done"))
            #expect(run.lines.first { $0.hasPrefix("spin at") }?.hasSuffix("cancelled true") == true)
        }
    }

    /// `return` in a compiled loop leaves the function (through its `finally`) or the saga,
    /// in the same step.
    @Test func returnLeaves() async {
        let source = """
            func find(xs, wanted) {
              for x in xs { if x.id == wanted { return x.name } }
              return "none"
            }
            func firstSquareOver(n) {
              var i = 0
              try {
                while true { i = i + 1; if i * i > n { return i } }
              } finally { log "searched to \\(i)" }
            }
            func bare() { var i = 0; loop { i = i + 1; if i > 2 { return } } }
            func failing(xs) { for x in xs { return x.a.b } }
            saga main {
              let xs = [{id: 1, name: "one"}, {id: 2, name: "two"}]
              let a = call find(xs, 2)
              let b = call find(xs, 3)
              let c = call firstSquareOver(50)
              let d = call bare()
              log "\\(a) \\(b) \\(c) \\(d)"
              try { let e = call failing([1]) } catch err { log "failing: \\(err.message)" }
              var k = 0
              while k < 10 { k = k + 1; if k == 4 { return } }
              log "not reached"
            }
            """
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(plain.lines == ["searched to 8", "two none 8 null", "failing: cannot read '.a' of a number"])
        #expect(plain.errors == [])
        for limit in [4, 5, 6, 7, 9] {
            let limited = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without waiting") == true)
        }
        for budget in [2, 3, 5] {
            let yielding = await runWithAndWithoutShortCuts(source) { $0.yieldAfterSteps = budget }
            #expect(yielding.lines == plain.lines)
        }
    }

    /// `if`s nested in arms: the statements after each arm run after it, and leaving arms that
    /// end their blocks is one step.
    @Test func nestedIfs() async {
        let source = """
            saga main {
              var a = 0
              var b = 0
              var c = 0
              for n in range(24) {
                if n % 2 == 0 {
                  if n % 3 == 0 { a = a + 1 } else if n % 4 == 0 { b = b + 1; if n > 10 { c = c + 100 } }
                  c = c + 1
                } else {
                  if n > 20 { if n == 23 { break }; c = c + 10 }
                }
              }
              log "\\(a) \\(b) \\(c)"
              var i = 0
              var t = 0
              while i < 9 { i = i + 1; if i > 2 { if i < 7 { t = t + i } else { if i == 8 { continue }; t = t - 1 } } }
              log "\\(i) \\(t)"
              var h = 1
              var m = 0
              while m < 6 {
                m = m + 1
                if m > 1 {
                  if m % 2 == 0 { h = h + 1; h = h + 0 }
                  h = h * 2
                }
                h = h - 1
              }
              log "h \\(h)"
            }
            """
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(plain.lines == ["4 4 222", "9 16", "h 11"])
        for limit in [6, 7, 8, 9, 10, 11, 12, 13] {
            let limited = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without waiting") == true)
        }
        for budget in [2, 3, 4, 5, 6] {
            let yielding = await runWithAndWithoutShortCuts(
                source + "\nsaga other { var k = 0; while k < 30 { k = k + 1 }; log \"other\" }"
            ) {
                $0.yieldAfterSteps = budget
            }
            #expect(yielding.lines.sorted() == ["4 4 222", "9 16", "h 11", "other"])
        }
    }

    /// The interpreter keeps one compiled form for each body, however many times it runs.
    @Test func eachBodyIsCompiledOnce() async throws {
        let source = """
            func load() { return 1 }
            saga main {
              var i = 0
              while i < 3 { i = i + 1 }
              for n in range(40) {
                let r = retry 2 call load()
                i = i + r
              }
              every "tick" as t { log t.type }
              loop { let a = take "stop"; break }
            }
            """
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: BufferedOutput())
        let ticks = Array(repeating: #"{"type":"tick"}"#, count: 10)
        let status = await interpreter.run(input: InputSource(lines: ticks + [#"{"type":"stop"}"#]))
        #expect(status == .success)
        // The body of `main` (its loops in its code), the `retry`'s loop (one body, however many
        // times it runs), the watcher's loop and its body (which runs in the loop's turn).
        #expect(interpreter.codeStore.entries.count == 4)
    }

    /// Loops nested in a compiled loop (a `while`, a `loop`, a `for`, each after statements
    /// and before others, one with an effect in an arm) count their own statement's step and
    /// each turn's: every step limit stops the run where the statements say, and every yield
    /// budget gives the same order.
    @Test func nestedLoopsCountTheirSteps() async {
        let source = """
            func one() { return 1 }
            saga main {
              for k in [3, 5] {
                var j = 0
                while j < k {
                  let o = call one()
                  j = j + o
                  if j == 4 { put "four" { k: k } }
                  if j > 6 { break }
                }
                var n = 0
                loop { n = n + 1; if n > 2 { break } }
                for q in [1, 2] { n = n + q }
                log "k \\(k) j \\(j) n \\(n)"
              }
            }
            saga other { var i = 0; while i < 20 { i = i + 1 }; log "other" }
            """
        let plain = await runWithAndWithoutShortCuts(source) { $0.printActions = true }
        #expect(plain.lines.contains("k 5 j 5 n 6"))
        for limit in 2...60 {
            _ = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
        }
        for budget in [1, 2, 3, 5, 8] {
            _ = await runWithAndWithoutShortCuts(source) { $0.yieldAfterSteps = budget }
        }
    }

    /// Which bodies compile: any whose statements are assignments, `if`s, loops with a body,
    /// `break`, `continue`, or statements the interpreter runs where they stand (effects, `log`,
    /// `throw`, `return`), `try`s, `transaction`s and loops, empty ones too.
    @Test func whichBodiesCompile() {
        func compiled(_ body: String, slotCount: Int = 8) -> Bool? {
            let source = """
                func one() { return 1 }
                saga main { var i = 0; var r = {a: 1}; while i < 3 { \(body) } }
                """
            guard let program = Frontend().compile(source: source, path: "t.saga").program,
                let body = program.sagas.first?.body.statements
            else { return nil }
            return Code(sagaBody: body, slotCount: slotCount) != nil
        }
        #expect(compiled("i = i + 1") == true)
        #expect(compiled("let x = call one(); i = i + x") == true)
        #expect(compiled("r.a = i; i = i + 1") == true)
        #expect(compiled("i = i + 1; if i > 1 { return i } else { continue }") == true)
        #expect(compiled("let t = fork { log i }; i = i + 1") == true)
        #expect(compiled("if i > 1 { while i < 9 { i = i + 1; put \"p\" } }; i = i + 1") == true)
        #expect(compiled("for k in [1] { log k }; i = i + 1") == true)
        #expect(compiled("try { put \"p\" } catch e { log e }; i = i + 1") == true)
        #expect(compiled("try { put \"p\" } finally { i = i + 1 }") == true)
        #expect(compiled("try { put \"p\" } finally { if i > 1 { break } }") == true)
        #expect(compiled("transaction { compensate { log i }; put \"p\" }; i = i + 1") == true)
        // A nested loop with an empty body is part of the code.
        #expect(compiled("loop {}") == true)
        // Only statements run where they stand: the code leaves for each.
        #expect(compiled("log i; let t = fork { log i }") == true)
        #expect(compiled("log i; let a = take \"a\"") == true)
        #expect(compiled("if cancelled { break }; i = i + 1") == true)
        // A variable past the frame it is compiled for.
        #expect(compiled("let x = 1; i = i + x", slotCount: 2) == false)
    }
}
