import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// `cancel t` and `join t` of a variable are instructions of the code: another task is
/// cancelled, and a task that has ended with a value is joined, where the code stands; any
/// other case (the task's own cancellation, a join that waits, fails or is cancelled, a value
/// that is not a task) runs the statement where it stands, as written.
@Suite struct CancelJoinInCodeTests {
    private func code(_ source: String) throws -> Code {
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let saga = try #require(program.sagas.first)
        return try #require(Code(sagaBody: saga.body.statements, slotCount: 16))
    }

    @Test func cancelAndJoinOfAVariableAreInstructions() throws {
        let code = try code(
            """
            saga main {
              let t = fork { delay 1 }
              let r = join t
              join t
              cancel t
              cancel [t]
              cancel
            }
            """)
        let instructions = code.instructions
        #expect(instructions.contains { if case .joinTask(_, let into, _) = $0 { into >= 0 } else { false } })
        #expect(instructions.contains { if case .joinTask(_, -1, _) = $0 { true } else { false } })
        #expect(instructions.filter { if case .cancelTask = $0 { true } else { false } }.count == 1)
        // `cancel [t]` and `cancel` itself run where they stand.
        let statements = instructions.filter {
            switch $0 {
            case .statement, .effect: true
            default: false
            }
        }
        #expect(statements.count == 2)
    }

    @Test func aJoinGivesTheValueOfATaskThatEndedAndWaitsForOneThatRuns() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            func twice(x) { return x * 2 }
            saga main {
              let done = fork twice(4)
              let running = fork { delay 5; return "later" }
              let a = join done
              log "done \\(a)"
              let b = join running
              log "running \\(b) at \\(now())"
            }
            """)
        #expect(outcome.lines == ["done 8", "running later at 5"])
    }

    @Test func aJoinOfATaskThatFailedOrWasCancelledRunsAsWritten() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let failing = spawn { throw "no" }
              let stopped = spawn { delay 10 }
              delay 1
              cancel stopped
              delay 1
              try { join failing } catch e { log "caught \\(e.message)" }
              join stopped
              log "not reached"
            }
            """)
        #expect(outcome.lines == ["caught no"])
        #expect(outcome.status != .success)
    }

    /// The cancelled task's `finally` runs before the task that cancelled it goes on, as
    /// after any effect that makes work; cancelling it again does nothing.
    @Test func aCancelOfAnotherTaskCancelsItOnce() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let t = fork { try { delay 10 } finally { log "t cancelled \\(cancelled)" } }
              delay 1
              cancel t
              log "after cancel"
              cancel t
              log "cancelled twice"
            }
            """)
        #expect(outcome.lines == ["t cancelled true", "after cancel", "cancelled twice"])
    }

    @Test func aCancelOrJoinOfSomethingElseFailsAsWritten() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let x = 5
              try { cancel x } catch e { log "cancel: \\(e.message)" }
              try { join x } catch e { log "join: \\(e.message)" }
            }
            """)
        #expect(outcome.lines.count == 2)
        #expect(outcome.lines.first?.hasPrefix("cancel: ") == true)
        #expect(outcome.lines.last?.hasPrefix("join: ") == true)
    }
}
