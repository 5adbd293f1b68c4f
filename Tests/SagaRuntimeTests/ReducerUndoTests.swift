import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A reducer that fails leaves the state as it was before it ran.
///
/// A body that is a single `state.key = …` keeps no undo log (the assignment happens whole or
/// not at all), so these check that such a reducer, failing either way, changes nothing.
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

    /// `state[k] = …` with `k` "persistence" fails as `state.persistence = …` is refused: that
    /// key is the persistence reducer's.
    @Test func aReducerCannotAssignThePersistenceKeyThroughAnIndex() async {
        let result = await runSaga(
            """
            state { count: 0 }
            reduce "set" as a { state[a.k] = "clobbered" }
            saga main {
              take "set"
              take "set"
              let s = select state
              log "\\(s)"
            }
            """, input: [#"{"type":"set","k":"persistence"}"#, #"{"type":"set","k":"other"}"#])
        #expect(result.lines == [#"{"count":0,"other":"clobbered"}"#])
        #expect(result.errors.count == 1)
        #expect(
            result.errors.first?.contains(
                "reducer at test.saga:2:1 failed: 'state.persistence' is kept by the persistence reducer") == true,
            "\(result.errors)")
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

/// Reading a field reads it where the record is (a variable's, the state's); a base that is
/// not a record still fails, with the message it always had, and `null` still reads as null.
@Suite struct FieldReadTests {
    @Test func aFieldOfSomethingThatIsNotARecordFailsAsBefore() async {
        let result = await runSaga(
            """
            reduce "five" as a { state = 5 }
            saga main {
              let x = 5
              let n = null
              log "null: \\(n.k)"
              try { log x.k } catch e { log "variable: \\(e.message)" }
              take "five"
              try { let s = select state.k } catch e { log "state: \\(e.message)" }
              let r = {k: {m: 1}}
              log "nested: \\(r.k.m)"
            }
            """, input: [#"{"type":"five"}"#])
        #expect(
            result.lines == [
                "null: null", "variable: cannot read '.k' of a number", "state: cannot read '.k' of a number",
                "nested: 1",
            ])
        #expect(result.errors == [])
    }
}

/// `now()` reads the scheduler's clock when it is called, in a saga and in a reducer.
@Suite struct NowTests {
    @Test func nowIsTheClockWhenItIsCalled() async {
        let result = await runSaga(
            """
            state { at: -1 }
            reduce "stamp" as a { state.at = now() }
            saga main {
              log "start \\(now())"
              delay 250
              log "later \\(now())"
              put "stamp"
              let at = select state.at
              log "stamped \\(at)"
            }
            """)
        #expect(result.lines == ["start 0", "later 250", "stamped 250"])
    }
}
