import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A reducer that extends a list or a string in the state (`state.todos = state.todos + [x]`)
/// beside other statements logs the member's length, not the member: holding the old list
/// would make the extension copy it, so that n appends take time in n².
///
/// When the reducer fails, the list and the string are cut back to their lengths, whatever
/// else changed them in between.
@Suite struct ReducerExtendUndoTests {
    @Test func aFailingReducerCutsItsListsAndStringsBackToTheirLengths() async {
        let outcome = await runReducers(
            """
            state { todos: ["a"], log: "é", count: 0 }
            reduce "add" as a {
              state.todos = state.todos + [a.todo]
              state.log = state.log + a.note
              state.todos = state.todos + [a.todo, a.todo]
              state.count = state.count + 1
              if a.fail { state.count = state.count + "x" }
            }
            saga main { loop { let a = take "add"; let s = select state; log "\\(s)" } }
            """,
            input: [
                #"{"type":"add","todo":"b","note":"👍","fail":true}"#,
                #"{"type":"add","todo":"c","note":"ü","fail":false}"#,
            ])
        #expect(outcome.errors.count == 1)
        #expect(
            outcome.lines == [
                #"{"count":0,"log":"é","todos":["a"]}"#,
                #"{"count":1,"log":"éü","todos":["a","c","c","c"]}"#,
            ])
    }

    /// A member extended, then replaced, then extended again, then the reducer fails: the
    /// replacement logs the member (the extended one), and rolling back, newest first, puts
    /// that back and then cuts it to the first length.
    @Test func anExtensionThenAReplacementThenAnExtensionRollBackTogether() async {
        let outcome = await runReducers(
            """
            state { todos: [1, 2], text: "ab" }
            reduce "bad" as a {
              state.todos = state.todos + [3]
              state.text = state.text + "c"
              state.todos = [9]
              state.text = "z"
              state.todos = state.todos + [10]
              state.text = state.text + "y"
              state.todos = state.todos + a.missing.deep
            }
            saga main { take "bad"; let s = select state; log "\\(s)" }
            """,
            input: [#"{"type":"bad"}"#])
        #expect(outcome.errors.count == 1)
        #expect(outcome.lines == [#"{"text":"ab","todos":[1,2]}"#])
    }

    /// `+` that is not an extension (numbers, a list plus a non-list that fails) and an
    /// extension of a member that is not there are logged as assignments and roll back too.
    @Test func updatesThatAreNotExtensionsRollBackAsAssignments() async {
        let outcome = await runReducers(
            """
            state { n: 1, todos: [1] }
            reduce "bad" as a {
              state.n = state.n + 1
              state.fresh = state.fresh ?? []
              state.fresh = state.fresh + [1]
              state.todos = state.todos + [2]
              state.todos = state.todos + "x"
            }
            saga main { take "bad"; let s = select state; log "\\(s)" }
            """,
            input: [#"{"type":"bad"}"#])
        #expect(outcome.errors.count == 1)
        #expect(outcome.lines == [#"{"n":1,"todos":[1]}"#])
    }

    /// Hundreds of appends beside a second statement, every third action failing: the list
    /// ends with exactly the items of the actions that succeeded, in order.
    @Test func aLongListKeepsOnlyWhatSucceeded() async {
        let lines = (0..<300).map { i in #"{"type":"add","todo":\#(i),"fail":\#(i % 3 == 0)}"# }
        let outcome = await runReducers(
            """
            state { todos: [], count: 0 }
            reduce "add" as a {
              state.todos = state.todos + [a.todo]
              state.count = state.count + 1
              if a.fail { state.count = state.count + "x" }
            }
            """, input: lines)
        #expect(outcome.errors.count == 100)
        #expect(outcome.state["todos"] == .list((0..<300).filter { $0 % 3 != 0 }.map { .int($0) }))
        #expect(outcome.state["count"] == .int(200))
    }

    /// The log keeps no reference to the list it notes: the list is extended where it is (its
    /// buffer does not move), and rolling back cuts it back.
    @Test func loggingAnExtensionLeavesTheListUnshared() throws {
        var state = Value.record(Record([("todos", roomyList([.int(1), .int(2)]))]))
        let before = listBufferAddress(state["todos"])

        var undo = StateUndoLog()
        undo.willUpdate(state, member: "todos", .add, .list([.int(3)]))
        try PathAssignment.updateMember(&state, "todos") { (value: inout Value) throws(SagaError) in
            try Evaluator(now: 0).update(&value, .add, .list([.int(3)]))
        }
        #expect(state["todos"] == .list([.int(1), .int(2), .int(3)]))
        #expect(listBufferAddress(state["todos"]) == before, "the list was copied")

        undo.rollBack(&state)
        #expect(state["todos"] == .list([.int(1), .int(2)]))
    }

    /// A reducer of two statements appending to a list: each action extends the list where it
    /// is; a copy each action would make n appends take time in n².
    @Test func aLoggedReducerAppendsWhereTheListIs() throws {
        let source = """
            reduce "add" as a {
              state.todos = state.todos + [a.n]
              state.count = state.count + 1
            }
            """
        let runner = try reducerRunner(source)
        var state = Value.record(Record([("todos", roomyList([.int(0)])), ("count", .int(0))]))
        let before = listBufferAddress(state["todos"])
        // Checked after each action: over several, a copy could land where a freed one was.
        for n in 1...10 {
            runner.reduce(&state, ["type": "add", "n": .int(n)])
            #expect(listBufferAddress(state["todos"]) == before, "the list was copied at action \(n)")
        }
        #expect(state["todos"] == .list((0...10).map { .int($0) }))
        #expect(state["count"] == .int(10))
    }
}
