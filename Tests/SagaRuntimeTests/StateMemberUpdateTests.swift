import SagaCore
import SagaLanguage
import Testing

/// A reducer's `state.K = state.K op …` runs as one update of the member where it is (lists
/// and strings that `+` extends are appended to).
///
/// Each program here runs (``runReducers(_:input:_:sourceLocation:)``) and must print, fail,
/// roll back and end as a read, the operator and a store would.
@Suite struct StateMemberUpdateTests {
    private static func adds(_ values: [String]) -> [String] {
        values.map { #"{"type":"add","v":\#($0)}"# }
    }

    @Test func numbersStringsListsAndRecordsAreUpdated() async {
        let outcome = await runReducers(
            """
            state { n: 1, s: "a", l: [0], r: { x: 1 } }
            reduce "add" as a {
              state.n = state.n * 3
              state.s = state.s + "b"
              state.l = state.l + [a.v, [a.v]]
              state.r = state.r + { y: a.v }
              state.missing = state.missing ?? 0
              state.fresh = state.fresh + [a.v]
            }
            """, input: Self.adds(["1", "2"]))
        // `state.fresh + [..]` reads null + a list: a type error, logged; the reducer's other
        // updates are rolled back with it.
        #expect(outcome.state.canonicalJSON == #"{"l":[0],"n":1,"r":{"x":1},"s":"a"}"#)
        #expect(outcome.errors.count == 2)
    }

    @Test func aListGrowsByAppendsAndIsSharedByNoOne() async {
        let outcome = await runReducers(
            """
            state { todos: [] }
            reduce "add" as a { state.todos = state.todos + [a.v] }
            saga main {
              let before = select state.todos
              take "done"
              let after = select state.todos
              log "\\(len(before)) \\(len(after))"
            }
            """, input: [#"{"type":"x"}"#] + Self.adds(["1", "2", "3"]) + [#"{"type":"done"}"#])
        // A list a saga selected is its own: appending to the state's does not change it.
        #expect(outcome.lines == ["0 3"])
        #expect(outcome.state.canonicalJSON == #"{"todos":[1,2,3]}"#)
    }

    @Test func aStateThatIsNotARecordFailsAtTheReadAsBefore() async {
        let outcome = await runReducers(
            """
            state { count: 0 }
            reduce "flat" as a { state = 5 }
            reduce "add" as a { state.count = state.count + a.v.deep }
            """, input: [#"{"type":"flat"}"#] + Self.adds(["1"]))
        #expect(outcome.errors.joined().contains("cannot read '.count' of a number"))
        #expect(outcome.state == 5)
    }

    @Test func aNullStateGetsARecord() async {
        let outcome = await runReducers(
            """
            reduce "add" as a { state.names = state.names + "x" }
            reduce "list" as a { state.l = state.l + [1] }
            """, input: Self.adds(["1"]) + [#"{"type":"list"}"#])
        #expect(outcome.errors.count == 2)
    }

    /// Past `--max-length`, past the nesting limit, on overflow or with an operand of another
    /// kind, the update fails as the operator or the store would, and leaves the member as it was.
    @Test func failuresLeaveTheMemberAsItWas() async {
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        let outcome = await runReducers(
            """
            state { l: [1, 2], s: "abc", n: 9223372036854775807 }
            reduce "long" as a { state.l = state.l + [3, 4, 5, 6] }
            reduce "text" as a { state.s = state.s + "defg" }
            reduce "deep" as a { state.l = state.l + [a.v] }
            reduce "big" as a { state.n = state.n + 1 }
            reduce "kind" as a { state.s = state.s + 1 }
            """,
            input: [
                #"{"type":"long"}"#, #"{"type":"text"}"#, #"{"type":"big"}"#, #"{"type":"kind"}"#,
                #"{"type":"deep","v":"#, deep, "}",
            ].reduce(into: []) { lines, part in
                if part.hasPrefix("{") { lines.append(part) } else { lines[lines.count - 1] += part }
            }
        ) { $0.maxLength = 5 }
        #expect(outcome.state.canonicalJSON == #"{"l":[1,2],"n":9223372036854775807,"s":"abc"}"#)
        #expect(outcome.errors.count == 5)
    }

    /// A later statement that fails rolls the update back, list and all.
    @Test func aFailureLaterInTheReducerRollsTheUpdateBack() async {
        let outcome = await runReducers(
            """
            state { l: [], n: 0 }
            reduce "add" as a {
              state.l = state.l + [a.v]
              state.n = state.n + 1
              let bad = len(a.v)
            }
            """, input: Self.adds(["1", "\"ok\""]))
        #expect(outcome.state.canonicalJSON == #"{"l":["ok"],"n":1}"#)
        #expect(outcome.errors.count == 1)
    }
}
