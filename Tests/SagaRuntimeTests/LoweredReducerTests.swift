import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// The same reducers lowered and walked: a run-step limit (never reached here) makes the
/// interpreter walk them, so each program runs both ways and the two runs must agree on
/// everything: what they print, the errors reported, the status and the final state.
@Suite struct LoweredReducerTests {
    @discardableResult
    private func expectSameBothWays(
        _ source: String, input: [String], _ configure: @escaping (inout Interpreter.Options) -> Void = { _ in },
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> ConfiguredRun {
        let lowered = await runConfigured(source, input: input, configure)
        let walked = await runConfigured(source, input: input) {
            configure(&$0)
            $0.maxRunSteps = Int.max / 2
        }
        #expect(lowered.status != nil, "does not compile", sourceLocation: sourceLocation)
        #expect(lowered == walked, sourceLocation: sourceLocation)
        return lowered
    }

    @Test func reducersRunLoweredUnlessARunStepLimitIsSet() throws {
        let program = try #require(Frontend().compile(source: #"reduce "a" as a { }"#, path: "t.saga").program)
        let output = BufferedOutput()
        #expect(Interpreter(program: program, options: .init(virtualTime: true), output: output).reducers.runsLowered)
        var limited = Interpreter.Options(virtualTime: true)
        limited.maxRunSteps = 1_000
        #expect(!Interpreter(program: program, options: limited, output: output).reducers.runsLowered)
    }

    @Test func arithmeticMembersAndVariables() async {
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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
        let outcome = await expectSameBothWays(
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

    @Test func logicCoalescingNegationAndListLiterals() async {
        let outcome = await expectSameBothWays(
            """
            state { seen: null, flags: [], log: [] }
            reduce "l" as a {
              state.seen = (state.seen ?? 0) + 1
              let both = a.x && a.y
              let either = a.x || a.y
              state.flags = [both, either, !both, -a.n, a.missing ?? "none", [a.n, [a.n]]]
              var xs = [a.n]
              xs = [xs, a.n ?? 0]
              state.log = state.log + [xs]
            }
            reduce "bad" as a {
              if a.n == 1 { state.e = a.n && true }
              if a.n == 2 { state.e = true && a.n }
              if a.n == 3 { state.e = !a.n }
              if a.n == 4 { state.e = -a.s }
              if a.n == 5 { state.e = false || a.s }
              state.ok = [a.n, a.missing.deeper]
            }
            """,
            input: [
                #"{"type":"l","x":true,"y":false,"n":1}"#, #"{"type":"l","x":false,"y":true,"n":2}"#,
                #"{"type":"l","x":false,"y":false,"n":3}"#,
            ] + (1...6).map { #"{"type":"bad","n":\#($0),"s":"text"}"# })
        #expect(outcome.errors.count == 5)
        #expect(outcome.state["seen"] == .int(3))
        #expect(outcome.state["ok"].canonicalJSON == "[6,null]")
        #expect(outcome.state["flags"].canonicalJSON == #"[false,false,true,-3,"none",[3,[3]]]"#)
    }

    @Test func assignmentsThroughPaths() async {
        let outcome = await expectSameBothWays(
            """
            state { users: {}, todos: ["a", "b"], meta: null }
            reduce "p" as a {
              state.users[a.id] = { name: a.name }
              state.users[a.id].visits = (state.users[a.id].visits ?? 0) + 1
              state.meta.last = a.id
              state.meta.count = (state.meta.count ?? 0) + 1
              var r = { inner: {} }
              r.inner.id = a.id
              r.list = [1]
              r.list[1] = a.name
              state.r = r
              if a.at != null { state.todos[a.at] = a.name }
            }
            """,
            input: [
                #"{"type":"p","id":"u1","name":"Ada","at":null}"#, #"{"type":"p","id":"u2","name":"Bob","at":2}"#,
                #"{"type":"p","id":"u1","name":"Ada","at":0}"#, #"{"type":"p","id":"u3","name":"Cy","at":9}"#,
                #"{"type":"p","id":7,"name":"Dee","at":null}"#,
            ])
        #expect(outcome.errors.count == 2)
        #expect(
            outcome.state.canonicalJSON
                == #"{"meta":{"count":3,"last":"u1"},"r":{"inner":{"id":"u1"},"list":[1,"Ada"]},"todos":["Ada","b","Bob"],"#
                + #""users":{"u1":{"name":"Ada","visits":1},"u2":{"name":"Bob","visits":1}}}"#)
    }

    @Test func indexReadsAndTheirErrors() async {
        let outcome = await expectSameBothWays(
            """
            state { list: [10, 20], map: { a: 1 }, text: "héllo" }
            reduce "i" as a {
              state.got = [state.list[a.i], state.map[a.k], state.text[a.i], null[a.i], state.list[a.i + 5]]
            }
            """,
            input: [
                #"{"type":"i","i":1,"k":"a"}"#, #"{"type":"i","i":"x","k":"a"}"#, #"{"type":"i","i":0,"k":1}"#,
                #"{"type":"i","i":1.0,"k":"b"}"#,
            ])
        #expect(outcome.errors.count == 2)
        #expect(outcome.state["got"].canonicalJSON == #"[20,null,"é",null,null]"#)
    }

    @Test func recordLiterals() async {
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        let outcome = await expectSameBothWays(
            """
            state { users: {} }
            reduce "r" as a {
              state.users[a.id] = { name: a.name, "the id": a.id, name: a.name + "!", nested: { n: [a.id] } }
              state.last = {}
            }
            reduce "deep" as a { state.deep = { a: { b: a.d }, c: a.n.q } }
            reduce "bad" as a { state.bad = { a: 1, b: a.n.q } }
            """,
            input: [
                #"{"type":"r","id":"u1","name":"Ada"}"#, #"{"type":"r","id":"u2","name":"Bob"}"#,
                #"{"type":"deep","n":1,"d":\#(deep)}"#, #"{"type":"bad","n":1}"#,
            ])
        #expect(outcome.errors.count == 2)
        #expect(outcome.errors.first?.contains("nest at most 512 levels") == true)
        #expect(
            outcome.state.canonicalJSON
                == #"{"last":{},"users":{"u1":{"name":"Ada!","nested":{"n":["u1"]},"the id":"u1"},"#
                + #""u2":{"name":"Bob!","nested":{"n":["u2"]},"the id":"u2"}}}"#)
    }

    @Test func loopsWithBreakContinueAndReturn() async {
        let outcome = await expectSameBothWays(
            """
            state { todos: ["a", "b"], booked: ["x", "y", "z"], n: 0 }
            reduce "todo/add" as a {
              var seen = false
              for t in state.todos {
                if t == a.todo { seen = true }
              }
              if !seen { state.todos = state.todos + [a.todo] }
            }
            reduce "unbook" as a {
              var keep = []
              for x in state.booked {
                if x == a.what { continue }
                keep = keep + [x]
              }
              state.booked = keep
            }
            reduce "count" as a {
              var i = 0
              while true {
                i = i + 1
                if i > a.n { break }
                for k in { p: 1, q: 2 } {
                  if k == "q" { break }
                  state.n = state.n + 1
                }
              }
              loop {
                i = i - 1
                if i < 0 { return }
                state.down = i
              }
            }
            reduce "find" as a {
              for x in state.booked {
                for y in [1, 2] {
                  if x == a.what && y == 2 {
                    state.found = [x, y]
                    return
                  }
                }
              }
              state.found = null
            }
            reduce "bad" as a { for x in a.n { state.x = x } }
            """,
            input: [
                #"{"type":"todo/add","todo":"a"}"#, #"{"type":"todo/add","todo":"c"}"#,
                #"{"type":"unbook","what":"y"}"#, #"{"type":"count","n":3}"#, #"{"type":"find","what":"z"}"#,
                #"{"type":"find","what":"q"}"#, #"{"type":"find","what":"x"}"#, #"{"type":"bad","n":5}"#,
            ])
        #expect(outcome.errors.count == 1)
        #expect(
            outcome.state.canonicalJSON
                == #"{"booked":["x","z"],"down":0,"found":["x",2],"n":3,"todos":["a","b","c"]}"#)
    }

    @Test func aReducerLoopingTooLongFailsTheSameWay() async {
        let outcome = await expectSameBothWays(
            """
            state { n: 0 }
            reduce "spin" as a {
              state.n = state.n + 1
              while true { state.n = state.n + 1 }
            }
            reduce "each" as a { for i in range(a.n) { state.i = i } }
            """,
            input: [#"{"type":"spin"}"#, #"{"type":"each","n":40}"#, #"{"type":"each","n":60}"#], { $0.maxSteps = 50 })
        #expect(outcome.errors.count == 2)
        #expect(outcome.state.canonicalJSON == #"{"i":39,"n":0}"#)
    }

    @Test func builtInsAndInterpolation() async {
        let outcome = await expectSameBothWays(
            """
            state { items: [3, 1, 2], names: { b: 1, a: 2 } }
            reduce "b" as a {
              state.n = len(state.items) + len(keys(state.names))
              state.top = max(min(a.n, 10), 0)
              state.label = "item \\(a.n) of \\(len(state.items)): \\(state.names) \\(str(a.n) + "!")"
              state.at = now()
              state.parts = split(join(["x", str(a.n)], "-"), "-")
            }
            reduce "bad" as a {
              if a.n == 1 { state.e = len(a.n) }
              if a.n == 2 { state.e = "\\(a.n.q) never" }
              state.long = "\\(a.s)\\(a.s)"
            }
            """,
            input: [
                #"{"type":"b","n":4}"#, #"{"at":7,"action":{"type":"b","n":40}}"#, #"{"type":"bad","n":1,"s":"ab"}"#,
                #"{"type":"bad","n":2,"s":"ab"}"#, #"{"type":"bad","n":3,"s":"\#(String(repeating: "x", count: 21))"}"#,
                #"{"type":"bad","n":4,"s":"ab"}"#,
            ], { $0.maxLength = 40 })
        #expect(outcome.errors.count == 3)
        #expect(outcome.state["n"] == .int(5) && outcome.state["top"] == .int(10) && outcome.state["at"] == .int(7))
        #expect(outcome.state["long"] == .string("abab"))
    }
}
