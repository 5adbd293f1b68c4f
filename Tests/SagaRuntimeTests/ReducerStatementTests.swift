import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// The program's run, after checking that it compiled.
@discardableResult
func runReducers(
    _ source: String, input: [String], _ configure: @escaping (inout Interpreter.Options) -> Void = { _ in },
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async -> ConfiguredRun {
    let run = await runConfigured(source, input: input, configure)
    #expect(run.status != nil, "does not compile", sourceLocation: sourceLocation)
    return run
}

/// Reducers of every kind of statement and expression, run: what they print, the errors
/// reported, the status and the final state.
@Suite struct ReducerStatementTests {
    @Test func arithmeticMembersAndVariables() async {
        let outcome = await runReducers(
            """
            state { count: 0, total: 0, last: null, name: "x", items: [] }
            reduce "add" as a {
              let d = a.by * 2
              var e = d
              e = e - 1
              state.count = state.count + a.by
              state.total = state.total + e
              state.last = a
              state.name = state.name + "!"
              state.items = state.items + [a.by]
              state.same = a.by == 2
              state.order = state.count >= 3
            }
            """,
            input: [#"{"type":"add","by":1}"#, #"{"type":"add","by":2}"#, #"{"type":"add","by":-4}"#])
        #expect(
            outcome.state.canonicalJSON
                == #"{"count":-1,"items":[1,2,-4],"last":{"by":-4,"type":"add"},"name":"x!!!","order":false,"same":false,"total":-5}"#
        )
    }

    @Test func conditionsReturnsAndWhatIsLeftToTheWalker() async {
        let outcome = await runReducers(
            """
            state { seen: 0, log: [] }
            reduce "n" as a {
              if a.n > 10 {
                state.size = "big"
                return
              } else if a.n == 5 {
                state.size = "five"
              } else {
                state.size = "small"
              }
              state.seen = (state.seen ?? 0) + 1
              if a.flag && a.n > 0 { state.both = true }
              var i = 0
              while i < a.n {
                i = i + 1
                if i == 3 { return }
                state.i = i
              }
              for k in range(2) { state.k = k }
              state.users[str(a.n)] = a.n
              state.deep.er = len(state.log)
              state.log = state.log + [a.n]
            }
            """,
            input: [
                #"{"type":"n","n":1,"flag":false}"#, #"{"type":"n","n":5,"flag":true}"#,
                #"{"type":"n","n":2,"flag":false}"#, #"{"type":"n","n":12}"#,
            ])
        #expect(
            outcome.state.canonicalJSON
                == #"{"both":true,"deep":{"er":1},"i":2,"k":1,"log":[1,2],"seen":3,"size":"big","users":{"1":1,"2":2}}"#
        )
    }

    @Test func aFailingReducerIsUndoneAndReportedTheSameWay() async {
        let outcome = await runReducers(
            """
            state { count: 1, items: [1], before: 0 }
            reduce "bad" as a {
              state.before = state.before + 1
              state.items = state.items + [a.n]
              if a.n == 1 { state.x = state.items + a.n.deep }
              if a.n == 2 { state.x = a.n * 9223372036854775807 }
              if a.n == 3 { if a.n { state.x = 1 } }
              if a.n == 4 { state.x = state.count.field }
              if a.n == 5 { state.count.field = 1 }
              state.after = a.n
            }
            reduce "*" as a { state.seen = (state.seen ?? 0) + 1 }
            saga main { loop { let a = take "bad"; let s = select state; log "\\(a.n): \\(s)" } }
            """,
            input: (1...6).map { #"{"type":"bad","n":\#($0)}"# })
        #expect(outcome.errors.count == 5)
        #expect(outcome.state["before"] == .int(1) && outcome.state["after"] == .int(6))
        #expect(outcome.state["seen"] == .int(6))
    }

    @Test func everyArmOfAnIfChainJumpsWhereItShould() async {
        let outcome = await runReducers(
            """
            state { size: null, trail: [] }
            reduce "n" as a {
              if a.n > 10 {
                state.size = "big"
                if a.n > 20 {
                  state.size = "huge"
                  return
                }
              } else if a.n == 5 {
                state.size = "five"
              } else if a.n == 6 {
              } else if a.n < 0 {
                if a.n == -1 { return } else { state.size = "neg" }
              } else {
                state.size = "small"
              }
              state.trail = state.trail + [state.size]
            }
            saga main { loop { let a = take "n"; let s = select state; log "\\(a.n): \\(s)" } }
            """,
            input: [12, 25, 5, 6, -1, -2, 1, 5].map { #"{"type":"n","n":\#($0)}"# })
        #expect(
            outcome.lines == [
                #"12: {"size":"big","trail":["big"]}"#, #"25: {"size":"huge","trail":["big"]}"#,
                #"5: {"size":"five","trail":["big","five"]}"#, #"6: {"size":"five","trail":["big","five","five"]}"#,
                #"-1: {"size":"five","trail":["big","five","five"]}"#,
                #"-2: {"size":"neg","trail":["big","five","five","neg"]}"#,
                #"1: {"size":"small","trail":["big","five","five","neg","small"]}"#,
                #"5: {"size":"five","trail":["big","five","five","neg","small","five"]}"#,
            ])
    }

    @Test func stateReadAfterStatementsLeftToTheWalker() async {
        let outcome = await runReducers(
            """
            state { users: {}, n: 0 }
            reduce "u" as a {
              state.users[a.k] = a.v
              state.n = len(keys(state.users))
              state.last = state.users[a.k]
              var i = 0
              while i < 2 {
                i = i + 1
                state.n = state.n + 1
              }
              state.after = state.n * 10 + i
            }
            """,
            input: [#"{"type":"u","k":"x","v":1}"#, #"{"type":"u","k":"y","v":2}"#, #"{"type":"u","k":"x","v":3}"#])
        #expect(outcome.state.canonicalJSON == #"{"after":42,"last":3,"n":4,"users":{"x":3,"y":2}}"#)
    }

    @Test func undoBeyondSixteenKeysAndAfterTheWholeStateIsReplaced() async {
        let many = (1...17).map { "  state.a\($0) = \($0)" }.joined(separator: "\n")
        let outcome = await runReducers(
            """
            state { keep: 1 }
            reduce "many" as a {
            \(many)
              state.x = a.n.bad
            }
            reduce "swap" as a {
              state = { replaced: a.n }
              state.y = state.replaced + 1
              if a.n == 2 { state.z = a.n.q }
            }
            """,
            input: [#"{"type":"many","n":1}"#, #"{"type":"swap","n":1}"#, #"{"type":"swap","n":2}"#])
        #expect(outcome.errors.count == 2)
        #expect(outcome.state.canonicalJSON == #"{"replaced":1,"y":2}"#)
    }

    @Test func errorsComeInTheOrderTheWalkerMeetsThem() async {
        let outcome = await runReducers(
            """
            state { }
            reduce "e" as a { state.x = a.p.q + a.r.s }
            reduce "f" as a { state.y = a.p + a.r.s }
            reduce "g" as a { state.z = a.n / 0 }
            reduce "h" as a { state.w = a.n < "x" }
            """,
            input: [
                #"{"type":"e","p":1,"r":1}"#, #"{"type":"f","p":"s","r":1}"#, #"{"type":"g","n":1}"#,
                #"{"type":"h","n":1}"#,
            ])
        #expect(outcome.errors.count == 4)
        #expect(outcome.errors.first?.contains("'.q'") == true)
        #expect(outcome.errors.dropFirst().first?.contains("'.s'") == true)
    }

    @Test func theLengthLimitHoldsBothWays() async {
        let outcome = await runReducers(
            """
            state { s: "" }
            reduce "grow" as a {
              state.s = state.s + a.s
              state.t = a.s + a.s
            }
            """,
            input: Array(repeating: #"{"type":"grow","s":"ab"}"#, count: 3), { $0.maxLength = 4 })
        #expect(outcome.errors.count == 1)
        #expect(outcome.state.canonicalJSON == #"{"s":"abab","t":"abab"}"#)
    }

    @Test func variablesThatReadThemselves() async {
        let outcome = await runReducers(
            """
            state { }
            reduce "v" as a {
              var x = a.n
              x = x * x + x
              var r = a
              r = r.inner
              let y = r.v ?? x
              if y > x { x = y } else { x = x - y }
              state.x = x
              state.r = r
            }
            """,
            input: [
                #"{"type":"v","n":3,"inner":{"v":20}}"#, #"{"type":"v","n":3,"inner":null}"#,
                #"{"type":"v","n":3,"inner":5}"#,
            ])
        #expect(outcome.errors.count == 1)
        #expect(outcome.errors.first?.contains("'.v'") == true)
        #expect(outcome.state.canonicalJSON == #"{"r":null,"x":0}"#)
    }
}
