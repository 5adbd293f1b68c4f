import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Reducers' expressions and control flow: logic, coalescing and list literals, assignments
/// through paths, index reads, record literals, loops and built-ins.
@Suite struct ReducerExpressionTests {
    /// `== null` and `!= null` of a variable, a member read into a temporary, a list and
    /// `null` itself, on either side, in conditions and as values.
    @Test func comparisonsWithNull() async {
        let outcome = await runReducers(
            """
            state { got: [] }
            reduce "c" as a {
              let x = a.x
              var marks = []
              if x == null { marks = marks + ["x null"] }
              if x != null { marks = marks + ["x set"] }
              if null != a.y.z { marks = marks + ["y.z set"] }
              if a.y.z == null { marks = marks + ["y.z null"] }
              if [a.x] != null { marks = marks + ["list"] }
              state.got = state.got + [[marks, null == null, null != null, a.x == null, 0 == null, "" != null]]
            }
            """,
            input: [#"{"type":"c","x":1,"y":{"z":2}}"#, #"{"type":"c","y":{}}"#])
        #expect(outcome.errors.isEmpty)
        #expect(
            outcome.state["got"].canonicalJSON
                == #"[[["x set","y.z set","list"],true,false,false,false,true],"#
                + #"[["x null","y.z null","list"],true,false,true,false,true]]"#)
    }

    @Test func logicCoalescingNegationAndListLiterals() async {
        let outcome = await runReducers(
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
        let outcome = await runReducers(
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
        // The out-of-range list index fails; the number id 7 is the record key "7".
        #expect(outcome.errors.count == 1)
        #expect(
            outcome.state.canonicalJSON
                == #"{"meta":{"count":4,"last":7},"r":{"inner":{"id":7},"list":[1,"Dee"]},"todos":["Ada","b","Bob"],"#
                + #""users":{"7":{"name":"Dee","visits":1},"u1":{"name":"Ada","visits":1},"u2":{"name":"Bob","visits":1}}}"#
        )
    }

    @Test func indexReadsAndTheirErrors() async {
        let outcome = await runReducers(
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
        // Only the string list index fails: a number reads a record's key by its text.
        #expect(outcome.errors.count == 1)
        #expect(outcome.state["got"].canonicalJSON == #"[20,null,"é",null,null]"#)
    }

    @Test func recordLiterals() async {
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        let outcome = await runReducers(
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
        let outcome = await runReducers(
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
        let outcome = await runReducers(
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
        let outcome = await runReducers(
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
