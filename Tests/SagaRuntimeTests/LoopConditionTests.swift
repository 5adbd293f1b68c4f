import SagaCore
import SagaRuntime
import Testing

/// A `while` loop's later turns, conditions over integers and `x = …` each take a short cut in
/// the interpreter (the condition read from the loop's frame in place, two integers compared
/// where they are, the slot read before the value is computed).
///
/// These programs pin what those short cuts must keep: the turns, `break` and `continue`, the
/// error of a condition that fails on a later turn, and what a failed assignment leaves.
@Suite struct LoopConditionTests {
    @Test func whileLoopsTurnBreakAndContinueAsWritten() async {
        let run = await runSaga(
            """
            func nothing() { return }
            func one() { return 1 }
            saga main {
              var i = 0
              var limit = 3
              while i < limit { let x = call one(); i = i + x }
              log i
              while i < 5.5 { i = i + 1 }
              log i
              var n = 0
              while n < 10 {
                n = n + 1
                if n % 2 == 0 { continue }
                if n > 6 { break }
                log n
              }
              let v = call nothing()
              log v
              var outer = 0
              var turns = 0
              while outer < 3 {
                outer = outer + 1
                var inner = 0
                while inner < outer { inner = inner + 1; turns = turns + 1 }
              }
              log turns
            }
            """)
        #expect(run.lines == ["3", "6", "1", "3", "5", "null", "6"])
        #expect(run.errors == [])
    }

    /// `x == null` and `x != null` test the value where it lies, whichever side the `null` is
    /// on, over a variable, a member read into a temporary, a loop's condition and a value of
    /// any kind.
    @Test func comparisonsWithNullTestTheValueAsWritten() async {
        let run = await runSaga(
            """
            saga main {
              var last = null
              let r = {a: null, b: [1]}
              if last == null { log "last is null" }
              if null != last { log "not reached" } else { log "null == last" }
              last = 0
              if last != null { log "0 is not null" }
              if r.a == null { log "r.a is null" }
              if r.b != null && null != r.b[0] { log "r.b[0] is \\(r.b[0])" }
              if r.c == null { log "a missing member is null" }
              var n = 1
              while n != null {
                log n
                if n == 0 { n = null } else { n = n - 1 }
              }
            }
            """)
        #expect(run.errors == [])
        #expect(
            run.lines == [
                "last is null", "null == last", "0 is not null", "r.a is null", "r.b[0] is 1",
                "a missing member is null", "1", "0",
            ])
    }

    @Test func aConditionThatFailsOnALaterTurnFailsAtTheLoop() async {
        let run = await runSaga(
            """
            saga main {
              var i = 0
              var limit = 2
              while i < limit {
                i = i + 1
                if i == 2 { limit = "two" }
              }
              log "not reached"
            }
            """)
        #expect(run.lines == [])
        #expect(run.errors.first?.contains("cannot compare number and string") == true)
        #expect(run.errors.joined().contains("test.saga:4:9"))
    }

    @Test func integerConditionsAndAssignmentsFallBackWhereTheyMust() async {
        let run = await runSaga(
            """
            saga main {
              var big = 9223372036854775807
              var j = 0
              try {
                while j < big + 1 { j = j + 1 }
              } catch e { log "condition: \\(e.kind) \\(e.message)" }
              var x = 1
              try { x = x + big } catch e { log "assignment: \\(e.message), x is still \\(x)" }
              if x < 2 && x > 0 { log "and" }
              if 1 < 2.5 { log "int and float" }
              if x + 1 { log "not a boolean" } else { log "never" }
            }
            """)
        #expect(
            run.lines == [
                "condition: ArithmeticError integer overflow", "assignment: integer overflow, x is still 1", "and",
                "int and float",
            ])
        // An integer sum is not a condition, short cut or not.
        #expect(run.errors.first?.contains("a condition must be a bool, got number") == true)
    }

    /// Each turn of a `while` is a step, whether its condition is read from the loop's frame
    /// in place or not: the step limit stops these loops at the same turn as it would without
    /// the short cut.
    @Test func aWhileLoopsTurnsCountAsSteps() async {
        let run = await runConfigured(
            """
            saga main {
              var i = 0
              try { while i < 1000000 { i = i + 1 } } catch e { log "\\(e.kind) at i=\\(i)" }
              var j = 0
              try { while true { j = j + 1 } } catch e { log "\\(e.kind) at j=\\(j)" }
              var k = 0
              try { while k < 1000000 { k = k + 1; if k % 2 == 0 { continue } } } catch e { log "\\(e.kind) at k=\\(k)" }
            }
            """
        ) { $0.maxSteps = 50 }
        #expect(run.lines == ["RangeError at i=23", "RangeError at j=22", "RangeError at k=13"])
    }

    /// With `--yield-after`, two sagas' loops take turns at the same places as they would
    /// without the short cuts.
    @Test func loopsYieldAtTheSamePlaces() async {
        let run = await runConfigured(
            """
            saga a {
              var i = 0
              while i < 6 { i = i + 1; log "a \\(i)" }
            }
            saga b {
              var i = 0
              while i < 6 { i = i + 1; log "b \\(i)" }
            }
            """
        ) { $0.yieldAfterSteps = 5 }
        #expect(run.lines == ["a 1", "b 1", "a 2", "b 2", "a 3", "a 4", "b 3", "b 4", "a 5", "a 6", "b 5", "b 6"])
    }

    /// Two frames of one recursive function share its loop's body array: each must test its
    /// own loop's condition over its own variables.
    @Test func aLoopInARecursiveInlineFunctionTurnsOnItsOwn() async {
        let run = await runSaga(
            """
            func f(n) { var i = 0; while i < 2 { i = i + 1; if n > 0 { let r = call f(n - 1) } }; log n }
            saga main { call f(2) }
            """)
        #expect(run.lines == ["0", "0", "1", "0", "0", "1", "2"])
    }

    /// Division by zero is not an integer short cut: it fails as a value and as a condition.
    ///
    /// An integer remainder is one, with `Value.remainder`'s values (by -1, of `Int.min`).
    @Test func divisionByZeroFailsInValuesAndConditions() async {
        let run = await runSaga(
            """
            saga main {
              var a = 7
              var b = 0
              try { log a / b } catch e { log "div: \\(e.kind) \\(e.message)" }
              try { log a % b } catch e { log "rem: \\(e.kind) \\(e.message)" }
              try { if a / b > 1 { log "never" } } catch e { log "if: \\(e.message)" }
              try { while a % b < 1 { log "never" } } catch e { log "while: \\(e.message)" }
              log [a / 2, a % 2, -7 / 2, -7 % 2]
              var min = -9223372036854775807 - 1
              var m1 = -1
              var neg = -7
              var two = 2
              log [min % m1, a % m1, neg % two, a % neg, 7.5 % two]
              var i = 0
              var r = 0
              while i < 3 { i = i + 1; r = min % m1 + neg % i }
              log r
            }
            """)
        #expect(
            run.lines == [
                "div: ArithmeticError division by zero", "rem: ArithmeticError division by zero",
                "if: division by zero", "while: division by zero", "[3.5,1,-3.5,-1]", "[0,0,-1,0,1.5]", "-1",
            ])
    }

    /// `x = a op b` of two integers is worked out with no evaluator; every operator it does not
    /// handle (division, `??`, `&&`) and every non-integer goes the usual way, with its error.
    @Test func integerAssignmentsGiveWhatTheEvaluatorGives() async {
        let run = await runSaga(
            """
            saga main {
              var a = 7
              var b = 3
              var x = 0
              x = a + b
              log x
              x = a - b
              log x
              x = a * b
              log x
              x = a / b
              log x
              x = a % b
              log x
              x = a < b
              log x
              x = a == 7
              log x
              x = b ?? 1
              log x
              try { x = a && b } catch e { log "and: \\(e.message), x is \\(x)" }
              x = 2.5
              x = x + 1
              log x
            }
            """)
        #expect(
            run.lines == [
                "10", "4", "21", "2.3333333333333335", "1", "false", "true", "3",
                "and: '&&' needs bools, got number, x is 3", "3.5",
            ])
    }
}
