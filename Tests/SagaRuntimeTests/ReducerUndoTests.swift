import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A reducer that fails leaves the state as it was before it ran. A body that is a single
/// `state.key = …` keeps no undo log (the assignment happens whole or not at all), so these
/// check that such a reducer, failing either way, changes nothing.
@Suite struct ReducerUndoTests {
    @Test func aOneAssignmentReducerWhoseValueFailsChangesNothing() async {
        let result = await runSaga(
            """
            state { count: 1, other: "kept" }
            reduce "bad" as a { state.count = state.count + a.missing.deep }
            reduce "good" as a { state.count = state.count + 1 }
            saga main {
              take "bad"
              let s1 = select state
              log "after bad: \\(s1)"
              take "good"
              let s2 = select state
              log "after good: \\(s2)"
            }
            """, input: [#"{"type":"bad"}"#, #"{"type":"good"}"#])
        #expect(
            result.lines == [
                #"after bad: {"count":1,"other":"kept"}"#, #"after good: {"count":2,"other":"kept"}"#,
            ])
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.contains("reducer at test.saga:2:1 failed") == true)
    }

    @Test func aOneAssignmentReducerOverAStateThatIsNotARecordChangesNothing() async {
        let result = await runSaga(
            """
            reduce "reset" as a { state = 5 }
            reduce "set" as a { state.k = 1 }
            saga main {
              take "set"
              let s = select state
              log "state: \\(s)"
            }
            """, input: [#"{"type":"reset"}"#, #"{"type":"set"}"#])
        #expect(result.lines == ["state: 5"])
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.contains("cannot set '.k' of a number") == true)
    }
}
