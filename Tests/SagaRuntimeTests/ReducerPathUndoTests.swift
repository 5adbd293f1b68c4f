import SagaCore
import Testing

@testable import SagaRuntime

/// A reducer that assigns through paths of record keys and list positions
/// (`state.users[a.id] = a.user`, `state.todos[a.i].done = true`) logs the old value at each
/// path's end, not the member the path starts with; when it fails, each
/// of those values goes back, newest first, and a key it added goes away.
@Suite struct ReducerPathUndoTests {
    /// The state the failing action met, and the one a good action leaves.
    static let source = """
        state { users: { u1: { name: "Ada", visits: 1 } }, count: 0 }
        reduce "add" as a {
          state.users[a.id] = a.user
          state.users.u1.visits = state.users.u1.visits + 1
          state.users["u1"].name = "changed"
          state.count = state.count + 1
          if a.fail { state.count = state.count + "x" }
        }
        saga main { loop { let a = take "add"; let s = select state; log "\\(a.id): \\(s)" } }
        """

    @Test func aFailingReducerPutsBackEachPathItChangedAndRemovesTheKeyItAdded() async {
        let outcome = await runReducers(
            Self.source,
            input: [
                #"{"type":"add","id":"u2","user":{"name":"Bo"},"fail":true}"#,
                #"{"type":"add","id":"u3","user":{"name":"Cy"},"fail":false}"#,
            ])
        #expect(outcome.errors.count == 1)
        #expect(
            outcome.lines == [
                #"u2: {"count":0,"users":{"u1":{"name":"Ada","visits":1}}}"#,
                #"u3: {"count":1,"users":{"u1":{"name":"changed","visits":2},"u3":{"name":"Cy"}}}"#,
            ])
    }

    /// A path under one already logged (`state.users.u1`, then `.name` below it), a path
    /// through a list index (logged by its first member) and a later assignment to the whole
    /// member all roll back to the state before the reducer.
    @Test func pathsUnderOthersThroughListsAndBeforeWholeMembersRollBackTogether() async {
        let outcome = await runReducers(
            """
            state { users: { u1: { name: "Ada" } }, items: [{ done: false }], n: 0 }
            reduce "bad" as a {
              state.users.u1 = { name: "Bo", tags: [] }
              state.users.u1.name = "Cy"
              state.users.u1.tags = state.users.u1.tags + ["t"]
              state.items[0].done = true
              state.users.u2 = 2
              state.users = { nobody: true }
              state.n = state.n + a.missing.deep
            }
            saga main { take "bad"; let s = select state; log "\\(s)" }
            """,
            input: [#"{"type":"bad"}"#])
        #expect(outcome.errors.count == 1)
        #expect(outcome.lines == [#"{"items":[{"done":false}],"n":0,"users":{"u1":{"name":"Ada"}}}"#])
    }

    /// Many users added by a reducer of two statements, in scattered order, each later
    /// failing action undone: the record of users ends with exactly the keys of the actions
    /// that succeeded, whatever its storage (past 256 keys, chunks).
    @Test func aLargeRecordOfUsersKeepsOnlyWhatSucceeded() async {
        let lines = (0..<600).map { i in
            let id = (i * 7919) % 600
            return #"{"type":"add","id":"u\#(id)","user":{"n":\#(id)},"fail":\#(id % 3 == 0)}"#
        }
        let outcome = await runReducers(
            """
            state { users: {}, count: 0 }
            reduce "add" as a {
              state.users[a.id] = a.user
              state.count = state.count + 1
              if a.fail { state.count = state.count + "x" }
            }
            """, input: lines)
        #expect(outcome.errors.count == 200)
        guard case .record(let users) = outcome.state["users"] else {
            Issue.record("no users")
            return
        }
        #expect(users.count == 400)
        #expect(outcome.state["count"] == .int(400))
        #expect(users.keys.sorted() == (0..<600).filter { $0 % 3 != 0 }.map { "u\($0)" }.sorted())
    }

    /// Paths through list positions: two items' fields changed, an item appended one past
    /// the end, a list in a list, then the reducer fails: every list is as it was, and the good
    /// action after it changes only what it names.
    @Test func pathsThroughListPositionsRollBack() async {
        let outcome = await runReducers(
            """
            state { todos: [{ done: false }, { done: false }], grid: [[1, 2], [3, 4]], n: 0 }
            reduce "edit" as a {
              state.todos[a.i].done = true
              state.todos[1 - a.i].done = true
              state.todos[2] = { done: true }
              state.todos[2].done = false
              state.grid[1][a.i] = 9
              state.grid[0] = state.grid[0] + [5]
              state.n = state.n + 1
              if a.fail { state.n = state.n + "x" }
            }
            saga main { loop { take "edit"; let s = select state; log "\\(s)" } }
            """,
            input: [#"{"type":"edit","i":1,"fail":true}"#, #"{"type":"edit","i":0,"fail":false}"#])
        #expect(outcome.errors.count == 1)
        #expect(
            outcome.lines == [
                #"{"grid":[[1,2],[3,4]],"n":0,"todos":[{"done":false},{"done":false}]}"#,
                #"{"grid":[[1,2,5],[9,4]],"n":1,"todos":[{"done":true},{"done":true},{"done":false}]}"#,
            ])
    }

    /// Toggling items of a long list beside a second statement, every third action failing:
    /// only the toggles that succeeded remain.
    @Test func toggledItemsOfALongListKeepOnlyWhatSucceeded() async {
        let items = (0..<300).map { _ in "{done: false}" }.joined(separator: ", ")
        let lines = (0..<300).map { i in #"{"type":"toggle","i":\#((i * 7) % 300),"fail":\#(i % 3 == 0)}"# }
        let outcome = await runReducers(
            """
            state { todos: [\(items)], count: 0 }
            reduce "toggle" as a {
              state.todos[a.i].done = !state.todos[a.i].done
              state.count = state.count + 1
              if a.fail { state.count = state.count + "x" }
            }
            """, input: lines)
        #expect(outcome.errors.count == 100)
        let expected = (0..<300).map { i -> Value in
            let toggled = (0..<300).contains { j in j % 3 != 0 && (j * 7) % 300 == i }
            return .record(Record([("done", .bool(toggled))]))
        }
        #expect(outcome.state["todos"] == .list(expected))
        #expect(outcome.state["count"] == .int(200))
    }

    /// The log keeps no reference to the list a path goes through: the item is changed where
    /// the list is (its buffer does not move), and rolling back puts the old item back.
    @Test func loggingAPathThroughAListLeavesTheListUnshared() throws {
        var state = Value.record(
            Record([("todos", .list([.record(Record([("done", .bool(false))])), .int(2)]))]))
        let before = listBufferAddress(state["todos"])
        let path: [PathAssignment.Key] = [.member("todos"), .index(.int(0)), .member("done")]

        var undo = StateUndoLog()
        undo.willAssign(state, through: path)
        try PathAssignment.set(&state, path[...], .bool(true))
        #expect(listBufferAddress(state["todos"]) == before, "the list was copied")
        #expect(state["todos"] == .list([.record(Record([("done", .bool(true))])), .int(2)]))

        undo.rollBack(&state)
        #expect(state["todos"] == .list([.record(Record([("done", .bool(false))])), .int(2)]))
    }
}
