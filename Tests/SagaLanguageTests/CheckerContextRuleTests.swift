import SagaCore
import Testing

@testable import SagaLanguage

/// Rules about where a construct may appear: reducers are pure, `state` lives in select and
/// reducers, `cancelled` in finally, `it` in a take's where, jumps in loops, compensations
/// in transactions, and forked blocks own only their own variables.
@Suite("The checker enforces where each construct may appear")
struct CheckerContextRuleTests {
    @Test func effectsLogThrowWatchersAndTransactionsAreNotAllowedInAReducer() {
        #expect(
            CheckerTests.errors(
                """
                reduce "a" as a {
                  put "b"
                  let s = select
                  log a
                  every "x" as x { put "y" }
                  transaction { compensate { } }
                  throw "no"
                }
                """) == [
                    "2:3: error: effects are not allowed in a reducer; reducers are pure",
                    "3:11: error: effects are not allowed in a reducer; reducers are pure",
                    "4:3: error: 'log' is not allowed in a reducer; reducers are pure",
                    "5:3: error: effects are not allowed in a reducer; reducers are pure",
                    "6:3: error: 'transaction' is not allowed in a reducer; reducers are pure",
                    "6:17: error: 'compensate' is not allowed in a reducer; reducers are pure",
                    "7:3: error: 'throw' is not allowed in a reducer; reducers are pure",
                ])
    }

    /// A function of the program named in a reducer is told apart from a built-in, declared
    /// before the reducer or after it, and the message does not send one to `call`.
    @Test func aSagaOrHostFunctionInAReducerSaysReducersCannotCallIt() {
        let pure = "reducers are pure: call it in a saga and put what it returns"
        #expect(
            CheckerTests.errors(
                """
                func before(x) { return x }
                reduce "a" as a { state.n = before(1) + after(2) }
                func after(x) { return x }
                """) == [
                    "2:29: error: 'before' is a saga function, which a reducer cannot call; \(pure)",
                    "2:41: error: 'after' is a saga function, which a reducer cannot call; \(pure)",
                ])
    }

    @Test func aReducerMayUseLocalsLoopsAndAPlainReturn() {
        let result = CheckerTests.compile(
            """
            reduce "todo/add" as a {
              if a.todo == null { return }
              var n = 0
              for t in state.todos { n = n + 1 }
              while n > 10 { n = n - 1 }
              state.todos = state.todos + [a.todo]
              state.users[a.id] = a.user
              state = state + { count: n }
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.program != nil)
    }

    @Test func aReducerCannotReturnAValue() {
        #expect(
            CheckerTests.errors(
                """
                reduce "a" as a { return 1 }
                """) == ["1:26: error: a reducer cannot return a value; assign to 'state' instead"])
    }

    @Test func aRootSagaMayReturnAValue() {
        #expect(CheckerTests.diagnostics("saga main { return 42 }") == [])
    }

    @Test func stateCanOnlyBeReadInSelectOrAReducer() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  let ok = select { n: len(state.items), first: state.items[0] }
                  log state.count
                  let t = take "x" where it.n == state.n
                }
                """) == [
                    "3:7: error: 'state' can only be read inside select or a reducer",
                    "4:34: error: 'state' can only be read inside select or a reducer",
                ])
    }

    @Test func stateCanOnlyBeAssignedInAReducer() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  state.count = 1
                }
                """) == [
                    "2:3: error: cannot assign to 'state' outside a reducer; dispatch an action with put instead"
                ])
    }

    @Test func cancelledMayBeReadAnywhere() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  try {
                    log cancelled
                  } catch e {
                    log cancelled
                  } finally {
                    if cancelled { fork { log cancelled } }
                  }
                }
                """) == [])
    }

    @Test func itIsOnlyValidInATakeWhereCondition() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  let a = take "x" where it.id == 1
                  log it
                  every "y" as y { log it }
                }
                """) == [
                    "3:7: error: 'it' can only be used in the condition of 'take … where'",
                    "4:24: error: 'it' can only be used in the condition of 'take … where'",
                ])
    }

    @Test func breakAndContinueNeedALoopInTheSameTaskBody() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  break
                  while true { if true { break } }
                  loop { continue }
                  for x in [1] { break }
                  loop {
                    fork { continue }
                    every "a" as a { break }
                  }
                }
                """) == [
                    "2:3: error: 'break' is only allowed inside a loop",
                    "7:12: error: 'continue' cannot leave a forked, watcher or compensate block; it runs as a task of its own",
                    "8:22: error: 'break' cannot leave a forked, watcher or compensate block; it runs as a task of its own",
                ])
    }

    @Test func compensateMustBeInsideATransactionOfTheSameTaskBody() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  compensate { log 1 }
                  transaction {
                    compensate { log 2 }
                    if true { compensate { log 3 } }
                    fork { compensate { log 4 } }
                    transaction { compensate { log 5 } }
                  }
                }
                """) == [
                    "2:3: error: compensate must be inside a transaction",
                    "6:12: error: compensate must be inside a transaction of its own task; a forked, watcher or "
                        + "compensate block runs as a task of its own, outside the transaction around it",
                ])
    }

    @Test func aForkedBlockCannotAssignAVariableDeclaredOutsideIt() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  var n = 0
                  fork { n = 1 }
                  spawn { var own = 0; own = n + 1 }
                  every "a" as a { n = 2 }
                  transaction { compensate { n = 3 } }
                  n = 4
                }
                """) == [
                    "3:10: error: cannot assign to 'n' captured by a forked block; tasks share nothing but the store and channels",
                    "5:20: error: cannot assign to 'n' captured by a watcher block; tasks share nothing but the store and channels",
                    "6:30: error: cannot assign to 'n' captured by a compensate block; it runs with a copy of the variables in scope when it was registered",
                ])
    }

    @Test func aProgramWithSeveralErrorsReportsAllOfThemInOrder() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  log cancelled
                  let a = 1
                  a = 2
                  call nowhere()
                }
                reduce "x" as x { put "y" }
                saga second { break }
                """) == [
                    "4:3: error: cannot assign to 'a': it is a let constant",
                    "5:8: error: unknown function 'nowhere'",
                    "7:19: error: effects are not allowed in a reducer; reducers are pure",
                    "8:15: error: 'break' is only allowed inside a loop",
                ])
        #expect(CheckerTests.compile("saga main { log nowhere }").program == nil)
        #expect(CheckerTests.compile("saga main { log cancelled }").program != nil)
    }
}
