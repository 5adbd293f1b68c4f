import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A saga's `while`, `for` and `loop` run from code (`Compiler+Sagas.swift`): what they
/// compute, where they fail, the steps they count and where they yield.
///
/// Each program here runs twice, with and without the short cuts (`Options.shortCuts`); both
/// runs must print, fail, count steps and calls, and yield alike.
@Suite struct CompiledLoopTests {
    @Test func computesWhatTheWalkComputes() async {
        let run = await runWithAndWithoutShortCuts(
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
        let condition = await runWithAndWithoutShortCuts(
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

        let call = await runWithAndWithoutShortCuts(
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

    /// Each turn and each statement is a step, and a call by value two (its statement and its
    /// `return`): the step limit stops a loop at the same place, a loop of calls too.
    @Test func theStepLimitStopsALoopWhereTheWalkDoes() async {
        let run = await runWithAndWithoutShortCuts(
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
              try {
                while calls < 100 { let x = call one(); calls = calls + x; j = j + 1; j = j - 1 }
              } catch e { log "\\(e.kind) at calls=\\(calls)" }
            }
            """
        ) { $0.maxSteps = 30 }
        #expect(run.lines == ["RangeError at i=13", "RangeError at j=8", "k=8", "RangeError at calls=4"])
    }

    /// With `--yield-after`, sagas whose loops run compiled take turns at the same places.
    @Test func loopsYieldWhereTheWalkYields() async {
        let run = await runWithAndWithoutShortCuts(
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
        let many = await runWithAndWithoutShortCuts(
            """
            saga a { var i = 0; while i < 30 { i = i + 1 }; log "a" }
            saga b { var i = 0; while i < 29 { i = i + 1 }; log "b" }
            saga c { var i = 0; for n in range(29) { i = i + n }; log "c" }
            saga d { var i = 0; while i < 20 { i = i + 1; i = i + 0; i = i + 0 }; log "d" }
            """
        ) { $0.yieldAfterSteps = 3 }
        #expect(many.lines == ["b", "c", "a", "d"])
    }

    /// Injected failures number a compiled loop's calls in the order they are made; past the
    /// call depth limit, a call by value runs as its statement and fails there.
    @Test func callsAreNumberedAndLimited() async {
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
        let injected = await runWithAndWithoutShortCuts(source) { $0.failingCall = 4 }
        #expect(injected.lines == ["InjectedFailure after 4", "deep 1"])
        let limited = await runWithAndWithoutShortCuts(source) { $0.maxCallDepth = 2 }
        #expect(limited.lines == [])
        #expect(limited.errors.first?.contains("calls nest more than 2 deep") == true)
        #expect(limited.errors.joined().contains("at func deep (test.saga:5:28)"))
    }

    /// A `for` loop's body runs compiled in the same way, each turn taking the next item.
    @Test func forLoopsComputeStopAndYield() async {
        let values = await runWithAndWithoutShortCuts(
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

        let limited = await runWithAndWithoutShortCuts(
            """
            saga main {
              var count = 0
              try { for i in range(1000) { count = count + 1; count = count + 0 } } catch e { log "\\(e.kind) at \\(count)" }
            }
            """
        ) { $0.maxSteps = 40 }
        #expect(limited.lines == ["RangeError at 12"])

        let yielding = await runWithAndWithoutShortCuts(
            """
            saga a { var s = 0; for i in range(9) { s = s + i }; log "a \\(s)" }
            saga b { var s = 0; for i in range(2) { s = s + i }; log "b \\(s)" }
            """
        ) { $0.yieldAfterSteps = 5 }
        #expect(yielding.lines == ["b 1", "a 36"])
    }

    /// An `if` whose arms only store runs compiled too: the `if` is a step, and so is leaving
    /// an arm, except where the `if` ends the body (the loop's next turn follows at once).
    @Test func ifsInLoopsBranchCountAndFail() async {
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
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(
            plain.lines == [
                "6 4 215 12", "7 high", "4 3", "cannot add number and string at k = 2, sum = 2",
                "condition: cannot compare number and string at m = 2",
            ])
        // Step limits and yields that fall inside arms, at their ends and at the `if`s.
        for limit in [9, 10, 11, 12, 13] {
            let limited = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without waiting") == true)
        }
        let yielding = await runWithAndWithoutShortCuts(
            """
            saga a { var s = 0; for n in range(9) { if n % 3 == 0 { s = s + n } else { s = s + 1; s = s - 1 } }; log "a \\(s)" }
            saga b { var s = 0; var i = 0; while i < 6 { i = i + 1; if i > 2 { s = s + i }; s = s + 0 }; log "b \\(s)" }
            saga c { var s = 0; for n in range(7) { if n > 3 { s = s + 1 } }; log "c \\(s)" }
            """
        ) { $0.yieldAfterSteps = 3 }
        #expect(yielding.lines.sorted() == ["a 9", "b 18", "c 3"])
        // Yields that fall inside an arm: the rest of the body still runs after it.
        for budget in [2, 3, 4, 5] {
            let inArms = await runWithAndWithoutShortCuts(
                """
                saga a { var s = 0; var t = 0; for n in range(9) { if n % 2 == 0 { s = s + n; s = s + 1 }; t = t + 1 }; log "a \\(s) \\(t)" }
                saga b { var t = 0; var i = 0; while i < 5 { i = i + 1; if i > 1 { t = t + 1; t = t + 1 } else { t = t - 1 }; t = t + 10 }; log "b \\(t)" }
                """
            ) { $0.yieldAfterSteps = budget }
            #expect(inArms.lines.sorted() == ["a 25 9", "b 57"])
        }
    }

    /// `break` and `continue` (in the body or an arm), and `loop`, which runs compiled as
    /// `while true`: the values, steps and yields the statements say.
    @Test func breakContinueAndLoopRun() async {
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
        let plain = await runWithAndWithoutShortCuts(source)
        #expect(plain.lines == ["found 5 after 2", "loop 5", "skipped 27", "odd 5 of 10", "k 3"])
        for limit in [5, 6, 7, 8, 9, 10, 11] {
            let limited = await runWithAndWithoutShortCuts(source) { $0.maxSteps = limit }
            #expect(limited.errors.first?.contains("steps without waiting") == true)
        }
        for budget in [2, 3, 4, 5] {
            let yielding = await runWithAndWithoutShortCuts(
                """
                saga a { var i = 0; var t = 0; loop { i = i + 1; if i % 2 == 0 { continue }; t = t + 1; if i > 8 { break } }; log "a \\(t)" }
                saga b { var t = 0; for n in range(6) { if n == 4 { break }; t = t + n }; log "b \\(t)" }
                """
            ) { $0.yieldAfterSteps = budget }
            #expect(yielding.lines.sorted() == ["a 5", "b 6"])
        }
    }
}
