import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A `while` or `for` loop whose body only stores values (expressions, calls of one-`return`
/// functions), or branches on `if`s whose arms do only that, runs lowered (`LoweredLoop`).
/// Each program here runs twice: lowered, and walked (a run-step budget turns the short cuts
/// off); both runs must print, fail, count steps and calls, and yield alike.
@Suite struct LoweredLoopTests {
    private func bothWays(
        _ source: String, _ configure: @escaping (inout Interpreter.Options) -> Void = { _ in }
    ) async -> ConfiguredRun {
        await runLoweredAndWalked(source, configure: configure)
    }

    @Test func computesWhatTheWalkComputes() async {
        let run = await bothWays(
            """
            func one() { return 1 }
            func twice(x) { return x * 2 }
            func label(n) { return "n\\(n)" }
            saga main {
              var i = 0
              var total = 0
              var half = 0.0
              var text = ""
              var running = true
              while i < 5 { let x = call one(); i = i + x; total = call twice(total + i); half = half + 0.5 }
              log "\\(i) \\(total) \\(half)"
              var k = 0
              while running { k = k + 1; text = call label(k); running = k < 3 }
              log "\\(k) \\(text)"
              var rows = 0
              var cells = 0
              while rows < 3 {
                rows = rows + 1
                var c = 0
                while c < rows { c = c + 1; cells = cells + c }
              }
              log cells
              var big = 9223372036854775800
              try { while true { big = big + 1 } } catch e { log "\\(e.kind) \\(e.message) at \\(big)" }
            }
            """)
        #expect(
            run.lines == [
                "5 114 2.5", "3 n3", "10", "ArithmeticError integer overflow at 9223372036854775807",
            ])
        #expect(run.errors == [])
    }

    /// A condition that fails on a later turn fails at the condition; a called function whose
    /// value fails runs inline, so that the trace names it.
    @Test func failuresAreReportedWhereTheWalkReportsThem() async {
        let condition = await bothWays(
            """
            saga main {
              var i = 0
              var limit = 2
              let limits = [2, "two"]
              while i < limit { i = i + 1; limit = limits[i] }
              log "not reached"
            }
            """)
        #expect(condition.lines == [])
        #expect(condition.errors.first?.contains("cannot compare number and string") == true)
        #expect(condition.errors.joined().contains("test.saga:5:9"))

        let call = await bothWays(
            """
            func inverse(x) { return 10 / x }
            saga main {
              var i = 3
              var sum = 0
              while i > -1 { i = i - 1; sum = call inverse(i) }
            }
            """)
        #expect(call.errors.first?.contains("division by zero") == true)
        #expect(call.errors.joined().contains("func inverse"))
    }

    /// Each turn and each statement is a step; a call by value counts as an effect, after
    /// which steps count again: the step limit stops a loop at the same place.
    @Test func theStepLimitStopsALoopWhereTheWalkDoes() async {
        let run = await bothWays(
            """
            func one() { return 1 }
            saga main {
              var i = 0
              try { while true { i = i + 1 } } catch e { log "\\(e.kind) at i=\\(i)" }
              var j = 0
              var k = 0
              try { while k < 20 { j = j + 1; k = k + 1 } } catch e { log "\\(e.kind) at j=\\(j)" }
              log "k=\\(k)"
              var calls = 0
              while calls < 100 { let x = call one(); calls = calls + x; j = j + 1; j = j - 1 }
              log "calls=\\(calls)"
            }
            """
        ) { $0.maxSteps = 30 }
        #expect(run.lines == ["RangeError at i=13", "RangeError at j=8", "k=8", "calls=100"])
    }

    /// With `--yield-after`, sagas whose loops run lowered take turns at the same places.
    @Test func loopsYieldWhereTheWalkYields() async {
        let run = await bothWays(
            """
            saga a {
              var i = 0
              while i < 7 { i = i + 1 }
              log "a"
            }
            saga b {
              var i = 0
              var j = 0
              while i < 3 { i = i + 1; j = j + i }
              log "b \\(j)"
            }
            saga c {
              log "c"
            }
            """
        ) { $0.yieldAfterSteps = 4 }
        #expect(run.lines == ["c", "b 6", "a"])

        // Steps drift if a turn's step is counted at the wrong place: over many yields, the
        // sagas would finish in another order.
        let many = await bothWays(
            """
            saga a { var i = 0; while i < 30 { i = i + 1 }; log "a" }
            saga b { var i = 0; while i < 29 { i = i + 1 }; log "b" }
            saga c { var i = 0; for n in range(29) { i = i + n }; log "c" }
            saga d { var i = 0; while i < 20 { i = i + 1; i = i + 0; i = i + 0 }; log "d" }
            """
        ) { $0.yieldAfterSteps = 3 }
        #expect(many.lines == ["b", "c", "a", "d"])
    }

    /// Injected failures number a lowered loop's calls as the walk numbers them; past the call
    /// depth limit, a call by value is left to the walk.
    @Test func callsAreNumberedAndLimitedAsWalked() async {
        let source = """
            func one() { return 1 }
            func deep(n) {
              var i = 0
              var got = 0
              while i < 2 { i = i + 1; got = call one() }
              if n > 0 { call deep(n - 1) }
              return got
            }
            saga main {
              var i = 0
              var total = 0
              try {
                while i < 10 { let x = call one(); total = total + x; i = i + 1 }
              } catch e { log "\\(e.kind) after \\(total)" }
              let d = call deep(3)
              log "deep \\(d)"
            }
            """
        let injected = await bothWays(source) { $0.failingCall = 4 }
        #expect(injected.lines == ["InjectedFailure after 4", "deep 1"])
        let limited = await bothWays(source) { $0.maxCallDepth = 2 }
        #expect(limited.lines == [])
        #expect(limited.errors.first?.contains("calls nest more than 2 deep") == true)
        #expect(limited.errors.joined().contains("at func deep (test.saga:5:28)"))
    }

    /// A `for` loop's body runs lowered in the same way, each turn taking the next item.
    @Test func forLoopsComputeStopAndYieldAsWalked() async {
        let values = await bothWays(
            """
            func price(item) { return item.qty * item.price }
            saga main {
              var total = 0
              var names = ""
              for item in [{qty: 2, price: 3}, {qty: 1, price: 10}] { let p = call price(item); total = total + p }
              for key in {b: 1, a: 2} { names = names + key }
              log "\\(total) \\(names)"
              var last = 0
              try {
                for n in [1, 2, "three", 4] { last = n; total = total + n }
              } catch e { log "\\(e.message) after \\(last)" }
              var count = 0
              for i in range(1000) { count = count + i }
              log count
            }
            """)
        #expect(values.lines == ["16 ab", "cannot add number and string after three", "499500"])

        let limited = await bothWays(
            """
            saga main {
              var count = 0
              try { for i in range(1000) { count = count + 1; count = count + 0 } } catch e { log "\\(e.kind) at \\(count)" }
            }
            """
        ) { $0.maxSteps = 40 }
        #expect(limited.lines == ["RangeError at 12"])

        let yielding = await bothWays(
            """
            saga a { var s = 0; for i in range(9) { s = s + i }; log "a \\(s)" }
            saga b { var s = 0; for i in range(2) { s = s + i }; log "b \\(s)" }
            """
        ) { $0.yieldAfterSteps = 5 }
        #expect(yielding.lines == ["b 1", "a 36"])
    }

    /// An `if` whose arms only store runs lowered too: the `if` is a step, and so is leaving
    /// an arm, except where the `if` ends the body (the loop's next turn follows at once).
    @Test func ifsInLoopsBranchCountAndFailAsWalked() async {
        let source = """
            func half(x) { return x / 2 }
            saga main {
              var evens = 0
              var odds = 0
              var big = 0
              var other = ""
              for n in range(12) {
                if n % 2 == 0 { evens = evens + 1; let h = call half(n); big = big + h } else if n > 8 { big = big + 100 } else { odds = odds + 1 }
                other = other + "."
              }
              log "\\(evens) \\(odds) \\(big) \\(len(other))"
              var i = 0
              var last = ""
              while i < 7 {
                i = i + 1
                if i < 3 { last = "low" } else if i < 5 { last = "mid" } else { last = "high" }
              }
              log "\\(i) \\(last)"
              var j = 0
              var empty = 0
              while j < 4 { j = j + 1; if j == 2 { } else { empty = empty + 1 }; empty = empty + 0 }
              log "\\(j) \\(empty)"
              let items = [1, 2, "three", 4]
              var k = 0
              var sum = 0
              try {
                while k < 4 { if k > 1 { sum = sum + items[k] } else { sum = sum + 1 }; k = k + 1 }
              } catch e { log "\\(e.message) at k = \\(k), sum = \\(sum)" }
              var m = 0
              try {
                while m < 4 { m = m + 1; if m < 2 { m = m + 0 } else if items[m] > 0 { m = m + 0 } }
              } catch e { log "condition: \\(e.message) at m = \\(m)" }
            }
            """
        let plain = await bothWays(source)
        #expect(
            plain.lines == [
                "6 4 215 12", "7 high", "4 3", "cannot add number and string at k = 2, sum = 2",
                "condition: cannot compare number and string at m = 2",
            ])
        // Step limits and yields that fall inside arms, at their ends and at the `if`s.
        for limit in [9, 10, 11, 12, 13] {
            let limited = await bothWays(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without an effect") == true)
        }
        let yielding = await bothWays(
            """
            saga a { var s = 0; for n in range(9) { if n % 3 == 0 { s = s + n } else { s = s + 1; s = s - 1 } }; log "a \\(s)" }
            saga b { var s = 0; var i = 0; while i < 6 { i = i + 1; if i > 2 { s = s + i }; s = s + 0 }; log "b \\(s)" }
            saga c { var s = 0; for n in range(7) { if n > 3 { s = s + 1 } }; log "c \\(s)" }
            """
        ) { $0.yieldAfterSteps = 3 }
        #expect(yielding.lines.sorted() == ["a 9", "b 18", "c 3"])
        // Yields that fall inside an arm: the rest of the body still runs after it.
        for budget in [2, 3, 4, 5] {
            let inArms = await bothWays(
                """
                saga a { var s = 0; var t = 0; for n in range(9) { if n % 2 == 0 { s = s + n; s = s + 1 }; t = t + 1 }; log "a \\(s) \\(t)" }
                saga b { var t = 0; var i = 0; while i < 5 { i = i + 1; if i > 1 { t = t + 1; t = t + 1 } else { t = t - 1 }; t = t + 10 }; log "b \\(t)" }
                """
            ) { $0.yieldAfterSteps = budget }
            #expect(inArms.lines.sorted() == ["a 25 9", "b 57"])
        }
    }

    /// `break` and `continue` (in the body or an arm), and `loop`, which runs lowered as
    /// `while true`: the same values, steps and yields as walked.
    @Test func breakContinueAndLoopRunAsWalked() async {
        let source = """
            saga main {
              let xs = [1, 5, 2, 8, 3]
              var found = -1
              var looked = 0
              for x in xs { looked = looked + 1; if x > 4 { found = x; break } }
              log "found \\(found) after \\(looked)"
              var i = 0
              loop { i = i + 1; if i >= 5 { break } }
              log "loop \\(i)"
              var s = 0
              for n in range(10) { if n % 3 == 0 { continue }; s = s + n }
              log "skipped \\(s)"
              var j = 0
              var odd = 0
              while true {
                j = j + 1
                if j > 9 { break } else if j % 2 == 0 { continue }
                odd = odd + 1
              }
              log "odd \\(odd) of \\(j)"
              var k = 0
              loop { k = k + 1; if k < 3 { continue }; break }
              log "k \\(k)"
            }
            """
        let plain = await bothWays(source)
        #expect(plain.lines == ["found 5 after 2", "loop 5", "skipped 27", "odd 5 of 10", "k 3"])
        for limit in [5, 6, 7, 8, 9, 10, 11] {
            let limited = await bothWays(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without an effect") == true)
        }
        for budget in [2, 3, 4, 5] {
            let yielding = await bothWays(
                """
                saga a { var i = 0; var t = 0; loop { i = i + 1; if i % 2 == 0 { continue }; t = t + 1; if i > 8 { break } }; log "a \\(t)" }
                saga b { var t = 0; for n in range(6) { if n == 4 { break }; t = t + n }; log "b \\(t)" }
                """
            ) { $0.yieldAfterSteps = budget }
            #expect(yielding.lines.sorted() == ["a 5", "b 6"])
        }
    }

    /// The edges: loops that never turn, empty arms, `continue` last, failures inside arms and
    /// in a called function (the trace names it), a string past `--max-length`, and a condition
    /// that fails at once inside `try`/`finally`.
    @Test func edgesAndFailuresAsWalked() async {
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
        let plain = await bothWays(source) { $0.maxLength = 100 }
        #expect(
            plain.lines == [
                "2 3 4", "RangeError: 64", "first turn: cannot compare number and string", "finally",
            ])
        #expect(plain.errors.first?.contains("division by zero") == true)
        #expect(plain.errors.joined().contains("at func inverse"))
        #expect(plain.errors.joined().contains("called by func countdown"))
        for failing in [0, 2, 3, 5, 7] {
            let injected = await bothWays(source) {
                $0.maxLength = 100
                $0.failingCall = failing
            }
            #expect(injected.lines.count >= 3)
        }
        let shallow = await bothWays(source) {
            $0.maxLength = 100
            $0.maxCallDepth = 1
        }
        #expect(shallow.errors.first?.contains("calls nest more than 1 deep") == true)
    }

    /// A task cancelled while it has yielded inside a lowered loop's arm runs its `finally`
    /// with the loop's variables as the walk leaves them.
    @Test func cancelledWhileYieldedInALoopAsWalked() async {
        for budget in [3, 4, 5, 7] {
            let run = await bothWays(
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

    /// `return` in a lowered loop leaves the function (through its `finally`) or the saga,
    /// in the same step, as walked.
    @Test func returnLeavesAsWalked() async {
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
        let plain = await bothWays(source)
        #expect(plain.lines == ["searched to 8", "two none 8 null", "failing: cannot read '.a' of a number"])
        #expect(plain.errors == [])
        for limit in [4, 5, 6, 7, 9] {
            let limited = await bothWays(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without an effect") == true)
        }
        for budget in [2, 3, 5] {
            let yielding = await bothWays(source) { $0.yieldAfterSteps = budget }
            #expect(yielding.lines == plain.lines)
        }
    }

    /// `if`s nested in arms: each enclosing block's rest is saved under the arm the walk is
    /// left in, and leaving arms that end their blocks is one step.
    @Test func nestedIfsAsWalked() async {
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
        let plain = await bothWays(source)
        #expect(plain.lines == ["4 4 222", "9 16", "h 11"])
        for limit in [6, 7, 8, 9, 10, 11, 12, 13] {
            let limited = await bothWays(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without an effect") == true)
        }
        for budget in [2, 3, 4, 5, 6] {
            let yielding = await bothWays(
                source + "\nsaga other { var k = 0; while k < 30 { k = k + 1 }; log \"other\" }"
            ) {
                $0.yieldAfterSteps = budget
            }
            #expect(yielding.lines.sorted() == ["4 4 222", "9 16", "h 11", "other"])
        }
    }

    /// The lowered runs above did lower: the interpreter keeps a lowered form for each loop
    /// that has one, and none for the loops desugaring makes, however many it makes.
    @Test func loopsThatLowerAreKeptAndOthersAreNot() async throws {
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
        // The `while` loop and the `loop` (a `take` and a `break`): not the `for` (it has a
        // `retry`), not the 40 `retry` loops, not the watcher's (it forks).
        #expect(interpreter.loweredLoops.count == 2)
    }

    /// What is lowered: stores of expressions and calls of one-`return` functions into
    /// variables, and `if`s of those; in the body itself (not in an arm), also `log`, `throw`
    /// and statements of `take`, `put`, `select` and `delay`.
    @Test func onlyLoopsThatComputeAreLowered() {
        func lowered(_ body: String) -> Bool? {
            let source = """
                func one() { return 1 }
                func two() { let a = 1; return a + 1 }
                saga main { var i = 0; var r = {a: 1}; while i < 3 { \(body) } }
                """
            guard let program = Frontend().compile(source: source, path: "t.saga").program,
                case .while(let condition, let block, _)? = program.sagas.first?.body.statements.last
            else { return nil }
            let shapes = program.functions.map(CallShape.init)
            return LoweredLoop.lower(condition: condition, body: block.statements, shapes: shapes) != nil
        }
        #expect(lowered("i = i + 1") == true)
        #expect(lowered("let x = call one(); i = i + x") == true)
        #expect(lowered("let s = \"\\(i)\"; i = len(s) + i") == true)
        #expect(lowered("i = call two()") == false)
        #expect(lowered("r.a = i; i = i + 1") == false)
        #expect(lowered("i = i + 1; log i") == true)
        #expect(lowered("i = i + 1; if i > 1 { break } else { continue }") == true)
        #expect(lowered("i = i + 1; if i > 1 { return i }") == true)
        #expect(lowered("i = i + 1; if i > 1 { throw \"x\" }") == false)
        #expect(lowered("if i > 1 { i = i + 2 } else if i > 0 { i = i + 1 } else { i = 1 }") == true)
        #expect(lowered("if i > 1 { if i > 2 { i = 3 } }; i = i + 1") == true)
        let deep = String(repeating: "if i > 0 { ", count: 9) + "i = 3" + String(repeating: " }", count: 9)
        #expect(lowered(deep + "; i = i + 1") == false)
        #expect(lowered("if i > 1 { log i }; i = i + 1") == false)
        #expect(lowered("let a = select state; i = i + 1") == true)
        #expect(lowered("let a = take \"t\"; r.a = put \"p\" {n: 1}; delay 1ms; i = i + 1") == true)
        #expect(lowered("let a = take \"t\" where it.n > i; put \"p\" {n: i}; i = i + 1") == true)
        #expect(lowered("i = i + 1; throw \"x\"") == true)
        #expect(lowered("let t = fork { log i }; i = i + 1") == false)
        #expect(lowered("let c = call one(); let d = call two(); i = i + 1") == false)
        #expect(lowered("let x = race { a: take \"a\", b: delay 1ms }; i = i + 1") == false)
        #expect(lowered("if i > 1 { put \"p\" }; i = i + 1") == false)
        #expect(lowered("try { put \"p\" } catch e { log e }; i = i + 1") == false)
    }
}
