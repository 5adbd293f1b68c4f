import SagaCore
import SagaRuntime
import Testing

/// A number indexes a record by its text, as in JavaScript: `state.users[a.id] = a.user` with
/// an integer id (the persistence layer's ids may be integers) sets the key `"7"`, and
/// `users[7]` reads it back.
@Suite struct RecordNumberKeyTests {
    @Test func aReducerSetsAndASagaReadsARecordByANumber() async {
        let run = await runConfigured(
            """
            state { users: {} }
            reduce "user/set" as a { state.users[a.id] = a.user }
            saga main {
              put "user/set" { id: 7, user: { name: "Ada" } }
              put "user/set" { id: 1.5, user: { name: "Half" } }
              let users = select state.users
              log users[7].name
              log users["7"].name
              log users[1.5].name
              log users[8]
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["Ada", "Ada", "Half", "null"])
        #expect(run.state == ["users": ["7": ["name": "Ada"], "1.5": ["name": "Half"]]])
    }

    /// A missing record on the way is made, as for a string key; a list still takes a number
    /// as its position.
    @Test func aNumberMakesARecordWhereNoneIsAndIndexesAList() async {
        let run = await runConfigured(
            """
            state { byId: null, list: [1, 2] }
            reduce "set" as a {
              state.byId[a.id] = a.id
              state.list[1] = a.id
            }
            saga main { put "set" { id: 3 } }
            """)
        #expect(run.errors == [])
        #expect(run.state == ["byId": ["3": 3], "list": [1, 3]])
    }

    /// A reducer that fails after setting a key by number leaves the state as it was.
    @Test func aFailedReducerPutsBackWhatItSetByNumber() async {
        let run = await runConfigured(
            """
            state { users: { "7": "old" }, n: 0 }
            reduce "set" as a {
              state.users[a.id] = "new"
              state.users[8] = "added"
              state.n = state.n + "x"
            }
            saga main { put "set" { id: 7 } }
            """)
        #expect(run.errors.count == 1)
        #expect(run.state == ["users": ["7": "old"], "n": 0])
    }

    /// Other kinds of key are still refused, with what a key may be.
    @Test func aBoolKeyIsRefused() async {
        let run = await runConfigured(
            """
            saga main {
              let r = { a: 1 }
              try { log r[true] } catch e { log e.message }
            }
            """)
        #expect(run.lines == ["a record key must be a string or a number, got bool"])
    }
}
