import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A `transaction` runs from code, its loop's or its own: the interpreter keeps its
/// compensations with the code (see ``CodeTries/transactions``).
///
/// Each program runs with the short cuts and without (`Options.shortCuts` off), which must
/// print, fail, count steps and yield alike; the lines expected are written out too.
@Suite struct CompiledTransactionTests {
    static let orders = """
        saga main {
          var i = 0
          while i < 4 {
            i = i + 1
            try {
              transaction {
                compensate { log "undo reserve \\(i)" }
                transaction {
                  compensate { log "undo charge \\(i)" }
                  if i == 2 { throw "charge \\(i) failed" }
                }
                if i == 3 { throw "ship \\(i) failed" }
                log "placed \\(i)"
              }
            } catch e {
              log "caught \\(e.message)"
            }
          }
          transaction {
            compensate { log "undo outside" }
            for k in [1, 2] {
              transaction {
                compensate { log "undo \\(k)" }
                if k == 2 { break }
              }
            }
            throw "after the loop"
          }
        }
        """

    @Test func compensationsRunLastFirstAndPassToTheEnclosingTransaction() async {
        let run = await runWithAndWithoutShortCuts(Self.orders)
        #expect(
            run.lines == [
                "placed 1", "undo charge 2", "undo reserve 2", "caught charge 2 failed", "undo charge 3",
                "undo reserve 3", "caught ship 3 failed", "placed 4", "undo 2", "undo 1", "undo outside",
            ])
        #expect(run.status == .sagaFailed)
    }

    @Test func everyStepLimitAndYieldBudgetFallsAlike() async {
        await runUnderLimitsWithAndWithoutShortCuts(Self.orders, limits: 2...60)
        // Failure injection runs each compensation twice.
        let twice = await runWithAndWithoutShortCuts(Self.orders) { $0.compensationRuns = 2 }
        #expect(
            twice.lines.prefix(5) == ["placed 1", "undo charge 2", "undo charge 2", "undo reserve 2", "undo reserve 2"])
    }

    /// A task cancelled while it waits in a transaction of its loop runs the compensations,
    /// which see `cancelled`, and its `finally` blocks.
    @Test func cancellationRunsTheCompensations() async {
        let run = await runWithAndWithoutShortCuts(
            """
            saga main {
              let t = fork {
                var n = 0
                try {
                  loop {
                    n = n + 1
                    transaction {
                      compensate { log "undo \\(n), cancelled \\(cancelled)" }
                      take "never"
                    }
                  }
                } finally {
                  log "finally \\(n), cancelled \\(cancelled)"
                }
              }
              delay 10
              cancel t
            }
            """)
        #expect(run.lines == ["undo 1, cancelled true", "finally 1, cancelled true"])
    }

    /// A compensation that fails is reported with its stack, so that one of several can be
    /// told apart; the others still run, and the body's error is the one thrown.
    @Test func aFailedCompensationIsReportedWithItsStack() async {
        let run = await runWithAndWithoutShortCuts(
            """
            func release(what) { throw "cannot release \\(what)" }
            saga main {
              try {
                transaction {
                  compensate { log "released car" }
                  compensate { call release("flight") }
                  throw "car unavailable"
                }
              } catch e { log "caught \\(e.message)" }
            }
            """)
        #expect(run.lines == ["released car", "caught car unavailable"])
        #expect(
            run.errors == [
                "warning: a compensation failed: cannot release flight\n    at func release (test.saga:1:22)\n"
                    + "    called by compensation at test.saga:6:20\n    called by saga main at test.saga:6:7"
            ])
    }
}
