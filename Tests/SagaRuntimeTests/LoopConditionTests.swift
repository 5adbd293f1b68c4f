import SagaCore
import SagaRuntime
import Testing

/// A `while` loop's later turns, conditions over integers and `x = …` each take a short cut
/// in the interpreter (the condition read from the loop's frame in place, two integers
/// compared where they are, the slot read before the value is computed). These programs pin
/// what those short cuts must keep: the turns, `break` and `continue`, the error of a
/// condition that fails on a later turn, and what a failed assignment leaves.
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
}
