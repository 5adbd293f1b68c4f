import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// `try`, `catch` and `finally` in a reducer: an error caught there does not fail the reducer,
/// and `finally` runs however its `try` is left.
@Suite struct ReducerTryTests {
    /// What the reducers of `source` leave in the state after `actions`, and the errors.
    private func reduce(_ source: String, _ actions: [Value]) throws -> (state: Value, errors: [String]) {
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let output = BufferedOutput()
        let runner = ReducerRunner(program: program, output: output)
        var state: Value = ["n": 0, "log": []]
        for action in actions { runner.reduce(&state, action) }
        #expect(runner.temporariesAreNull, "a temporary was left set")
        return (state, output.errors)
    }

    /// A caught error keeps what the body did before it, binds the error, and the reducer
    /// goes on.
    @Test func aCaughtErrorKeepsTheChangesBeforeIt() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              try {
                state.n = state.n + 1
                state.n = state.n + a.by
                state.n = 100
              } catch e {
                state.log = state.log + [e.kind, e.message]
              }
              state.after = true
            }
            """, [["type": "a", "by": "x"]])
        #expect(run.state == ["n": 1, "log": ["TypeError", "cannot add number and string"], "after": true])
        #expect(run.errors.isEmpty)
    }

    /// Without a `catch`, `finally` runs and the reducer fails: the state is as it was.
    @Test func anUncaughtErrorRunsFinallyThenFailsTheReducer() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              state.n = 1
              try { state.n = state.n + a.by } finally { state.log = state.log + ["finally"] }
            }
            reduce "a" as a { state.second = state.log }
            """, [["type": "a", "by": "x"]])
        #expect(run.state == ["n": 0, "log": [], "second": []])
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.contains("cannot add number and string") == true)
    }

    /// `finally` runs after the body, after the `catch` block, and on the way out of a loop
    /// by `break`, `continue` and `return`, innermost first.
    @Test func finallyRunsHoweverTheTryIsLeft() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              for i in range(4) {
                try {
                  try {
                    if i == 0 { continue }
                    if i == 1 { state.n = state.n + "x" }
                    if i == 2 { break }
                  } finally { state.log = state.log + ["inner \\(i)"] }
                } catch e {
                  state.log = state.log + ["caught \\(i)"]
                } finally {
                  state.log = state.log + ["outer \\(i)"]
                }
              }
              try { return } finally { state.log = state.log + ["returned"] }
              state.log = state.log + ["not reached"]
            }
            """, [["type": "a"]])
        #expect(
            run.state["log"]
                == ["inner 0", "outer 0", "inner 1", "caught 1", "outer 1", "inner 2", "outer 2", "returned"])
        #expect(run.errors.isEmpty)
    }

    /// An error in a `catch` block runs its `finally` and goes to the enclosing `try`.
    @Test func anErrorInCatchGoesOutward() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              try {
                try { state.n = state.n + a.x } catch e { state.n = state.n - a.y } finally {
                  state.log = state.log + ["finally"]
                }
              } catch e {
                state.log = state.log + [e.message]
              }
            }
            """, [["type": "a", "x": "s", "y": [1]]])
        #expect(run.state["log"] == ["finally", "cannot subtract list from number"])
    }

    /// An error in the middle of an expression, or of a `for` loop, inside a `try` leaves no
    /// temporary set (checked by `reduce`), and the loop can run again.
    @Test func anErrorInsideALoopLeavesNothingBehind() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              try {
                for x in a.xs { state.log = state.log + [[x, x.k.deep]] }
              } catch e {
                state.log = state.log + ["caught"]
              }
            }
            """, [["type": "a", "xs": [1, 2]], ["type": "a", "xs": []]])
        #expect(run.state["log"] == ["caught"])
    }

    /// A `break` or `continue` in a `finally` block that an error runs drops the error, and the
    /// loop goes on; a `return` there ends the reducer without it.
    @Test func aJumpOutOfAFinallyBlockDropsTheError() throws {
        let run = try reduce(
            """
            reduce "a" as a {
              for x in [1, 2, 3] {
                try {
                  try {
                    state.n = state.n + x
                    if x == 2 { state.n = state.n + "two" }
                  } finally {
                    state.log = state.log + ["finally \\(x)"]
                    if x == 2 { continue }
                  }
                  state.log = state.log + ["after \\(x)"]
                } catch e {
                  state.log = state.log + ["not caught"]
                }
              }
              try { state.n = state.n + "out" } finally { return }
            }
            """, [["type": "a"]])
        #expect(run.state["log"] == ["finally 1", "after 1", "finally 2", "finally 3", "after 3"])
        #expect(run.state["n"] == 6)
        #expect(run.errors.isEmpty)
    }
}
