import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A `try` runs from code, its loop's or its own: its `catch` and `finally` blocks are reached
/// through handlers the interpreter keeps with the code (see ``CodeTries/handlers``).
///
/// Each program runs with the short cuts and without (`Options.shortCuts` off), which must
/// print, fail, count steps and yield alike; the lines expected are written out too.
@Suite struct CompiledTryTests {
    static let loops = """
        func risky(n) {
          if n % 3 == 0 { throw "bad \\(n)" }
          return n * 2
        }
        saga main {
          var total = 0
          var i = 0
          while i < 7 {
            i = i + 1
            try {
              let v = call risky(i)
              total = total + v
              if i == 5 { continue }
              log "ok \\(i)"
            } catch e {
              log "caught \\(e.message)"
              if i == 6 { break }
            } finally {
              log "finally \\(i)"
            }
            log "after \\(i)"
          }
          log "total \\(total)"
          for x in [1, 2, 3] {
            try {
              try {
                if x == 2 { throw "two" }
                log "x \\(x)"
              } finally {
                log "inner \\(x)"
              }
            } catch e {
              log "outer caught \\(e.message)"
            }
          }
        }
        """

    @Test func catchesFinallyBlocksBreaksAndContinues() async {
        let run = await runWithAndWithoutShortCuts(Self.loops)
        #expect(
            run.lines == [
                "ok 1", "finally 1", "after 1", "ok 2", "finally 2", "after 2", "caught bad 3", "finally 3", "after 3",
                "ok 4", "finally 4", "after 4", "finally 5", "caught bad 6", "finally 6", "total 24", "x 1", "inner 1",
                "inner 2", "outer caught two", "x 3", "inner 3",
            ])
        #expect(run.status == .success)
    }

    @Test func everyStepLimitAndYieldBudgetFallsAlike() async {
        await runUnderLimitsWithAndWithoutShortCuts(Self.loops, limits: 2...70)
    }

    /// An error the `try`s do not catch runs every `finally` block on its way out, and is
    /// reported where it was thrown; a `catch` that throws its error again keeps that place.
    @Test func anUncaughtErrorRunsTheFinallyBlocksAndKeepsItsPlace() async {
        let run = await runWithAndWithoutShortCuts(
            """
            saga main {
              var i = 0
              while i < 3 {
                i = i + 1
                try {
                  try {
                    if i == 2 { throw "out" }
                  } catch e {
                    log "again"
                    throw e
                  } finally {
                    log "first \\(i)"
                  }
                } finally {
                  log "second \\(i)"
                }
              }
            }
            """)
        #expect(run.lines == ["first 1", "second 1", "again", "first 2", "second 2"])
        #expect(run.errors.first?.contains("test.saga:7:") == true)
        #expect(run.status == .sagaFailed)
    }

    /// A `return` in a `try` of a called function's loop runs the `finally` blocks, and the
    /// function returns its value.
    @Test func aReturnRunsTheFinallyBlocks() async {
        let run = await runWithAndWithoutShortCuts(
            """
            func find(xs, wanted) {
              for x in xs {
                try {
                  if x == wanted { return "found \\(x)" }
                } finally {
                  log "looked at \\(x)"
                }
              }
              return "none"
            }
            saga main {
              let a = call find([1, 2, 3], 2)
              log a
              let b = call find([1], 5)
              log b
            }
            """)
        #expect(run.lines == ["looked at 1", "looked at 2", "found 2", "looked at 1", "none"])
    }

    /// A task cancelled while it waits in a `try` of its loop runs the `finally` block, and
    /// not the `catch` block, and reads `cancelled` as true there; so does a task whose attached
    /// child failed, which no `catch` catches, reading `cancelled` as false.
    @Test func cancellationAndAFailedChildRunTheFinallyBlockOnly() async {
        let run = await runWithAndWithoutShortCuts(
            """
            saga main {
              let t = fork {
                var n = 0
                loop {
                  n = n + 1
                  try {
                    take "never"
                  } catch e {
                    log "not caught"
                  } finally {
                    log "cleaned up \\(n), cancelled \\(cancelled)"
                  }
                }
              }
              delay 10
              cancel t
              try {
                var k = 0
                while k < 2 {
                  k = k + 1
                  try {
                    fork { delay 5; throw "child failed" }
                    take "never"
                  } catch e {
                    log "a failed child is not caught"
                  } finally {
                    log "parent cleaned up \\(k), cancelled \\(cancelled)"
                  }
                }
              } catch e {
                log "caught above: \\(e.message)"
              }
            }
            """)
        #expect(run.lines == ["cleaned up 1, cancelled true", "parent cleaned up 1, cancelled false"])
        #expect(run.status == .sagaFailed)
    }

    /// A `finally` block that a way out runs can itself be left by an error a `try` around
    /// it catches: the way out it was running is dropped.
    @Test func anErrorInAFinallyBlockReplacesTheWayOut() async {
        let run = await runWithAndWithoutShortCuts(
            """
            saga main {
              var i = 0
              while i < 2 {
                i = i + 1
                try {
                  try {
                    throw "first"
                  } finally {
                    throw "second"
                  }
                } catch e {
                  log "caught \\(e.message)"
                }
              }
              log "done"
            }
            """)
        #expect(run.lines == ["caught second", "caught second", "done"])
    }

    /// A `break`, `continue` or `return` in a `finally` block drops the way out that ran it, as
    /// in JavaScript.
    @Test func aJumpOutOfAFinallyBlockDropsTheWayOut() async {
        let source = """
            func first(xs) {
              for x in xs {
                try { throw "lost \\(x)" } finally { return x }
              }
            }
            saga main {
              var i = 0
              while i < 4 {
                i = i + 1
                try {
                  try {
                    if i % 2 == 0 { throw "even \\(i)" }
                  } finally {
                    log "finally \\(i)"
                    if i == 2 { continue }
                    if i == 4 { break }
                  }
                  log "after \\(i)"
                } catch e {
                  log "caught \\(e.message)"
                }
              }
              let f = call first([7, 8])
              log "first \\(f)"
            }
            """
        let run = await runWithAndWithoutShortCuts(source)
        #expect(run.lines == ["finally 1", "after 1", "finally 2", "finally 3", "after 3", "finally 4", "first 7"])
        await runUnderLimitsWithAndWithoutShortCuts(source, limits: 2...40)
    }

    /// A `try` or `transaction` at the top of a body, or in a loop that a `break` or `continue`
    /// leaves through it, runs its `finally` blocks and compensations on the way.
    @Test func aTryAtTheTopOrInALoopLeavesThroughItsFinally() async {
        let source = """
            saga main {
              try { log "top" } finally { log "top finally" }
              transaction {
                compensate { log "undo top" }
                try { throw "top failed" } catch e { log "caught \\(e.message)" }
              }
              for x in [1, 2, 3] {
                try {
                  if x == 1 { continue }
                  transaction {
                    compensate { log "undo \\(x)" }
                    if x == 2 { break }
                  }
                } finally {
                  log "finally \\(x)"
                }
              }
              try { loop {} } catch e { log "caught \\(e.kind)" }
            }
            """
        let run = await runWithAndWithoutShortCuts(source) { $0.maxSteps = 1000 }
        #expect(
            run.lines == [
                "top", "top finally", "caught top failed", "finally 1", "finally 2", "caught RangeError",
            ])
        await runUnderLimitsWithAndWithoutShortCuts(source, limits: 2...30, maxSteps: 1000)
    }

    /// `try`s and a `transaction` with empty bodies each run their own code, although an empty
    /// block has no storage of its own to keep its code by.
    @Test func emptyBlocksRunTheirOwnCode() async {
        let run = await runWithAndWithoutShortCuts(
            """
            saga main {
              try {} finally { log "first" }
              try {} finally { log "second" }
              transaction {}
              try {} catch e { log "not caught" } finally { log "third" }
            }
            """)
        #expect(run.lines == ["first", "second", "third"])
    }

    /// A `try` entered again and again (in a watcher's body, at each action) and within itself
    /// (a recursive function) starts afresh each time: the `try`s its last run left are not
    /// seen by the next.
    @Test func aTryEnteredAgainStartsAfresh() async {
        let run = await runWithAndWithoutShortCuts(
            """
            func depth(n) {
              try {
                if n > 0 { let d = call depth(n - 1); return d + 1 }
                throw "bottom"
              } catch e {
                return 0
              } finally {
                log "left \\(n)"
              }
            }
            saga main {
              every "a" as a {
                try {
                  transaction {
                    compensate { log "undo \\(a.n)" }
                    if a.n % 2 == 0 { throw "even \\(a.n)" }
                  }
                  log "kept \\(a.n)"
                } catch e {
                  log "caught \\(e.message)"
                }
              }
              let d = call depth(2)
              log "depth \\(d)"
            }
            """,
            input: [#"{"type":"a","n":1}"#, #"{"type":"a","n":2}"#, #"{"type":"a","n":3}"#, #"{"type":"a","n":4}"#])
        #expect(
            run.lines == [
                "left 0", "left 1", "left 2", "depth 2", "kept 1", "undo 2", "caught even 2", "kept 3", "undo 4",
                "caught even 4",
            ])
    }
}
