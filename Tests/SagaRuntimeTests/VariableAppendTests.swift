import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `xs = xs + [x]` and `s = s + "…"` on a saga's or a reducer's own variable extend it where
/// it is.
///
/// What a run prints must be what building a new list or string gives: the same values, the
/// same errors, and no change to another variable that shares the old value.
@Suite struct VariableAppendTests {
    /// In a loop that runs compiled, in one that does not (a `try` in its body), and in a
    /// plain block.
    @Test(arguments: [
        "for i in range(4) { xs = xs + [i]; s = s + \"\\(i)\" }",
        "for i in range(4) { try { xs = xs + [i] } finally { s = s + \"\\(i)\" } }",
        "xs = xs + [0]; xs = xs + [1, 2]; xs = xs + [3]; s = s + \"01\"; s = s + \"23\"",
    ])
    func appendsGiveTheValuesAdditionGives(body: String) async {
        let run = await runSaga(
            """
            saga main {
              var xs = []
              var s = ""
              let before = xs
              \(body)
              log xs
              log s
              log before
            }
            """)
        #expect(run.lines == ["[0,1,2,3]", "0123", "[]"])
    }

    /// A variable that shares the list keeps the old list.
    @Test func aSharedListIsNotChanged() async {
        let run = await runSaga(
            """
            saga main {
              var xs = [1]
              let ys = xs
              let r = {keep: xs}
              for i in range(2) { xs = xs + [i] }
              log xs
              log ys
              log r
            }
            """)
        #expect(run.lines == ["[1,0,1]", "[1]", #"{"keep":[1]}"#])
    }

    /// A failed `+` leaves the variable as it was, and reports what `+` reports.
    @Test func aFailedAppendLeavesTheVariable() async {
        let run = await runSaga(
            """
            saga main {
              var xs = [1]
              try { xs = xs + 2 } catch e { log e.message }
              try { xs = xs + "a" } catch e { log e.message }
              log xs
              var s = "a"
              try { s = s + [1] } catch e { log e.message }
              log s
            }
            """)
        #expect(
            run.lines == [
                "cannot add list and number", "cannot add list and string", "[1]", "cannot add string and list", "a",
            ])
    }

    /// `--max-length` holds for an append in place as for `+`.
    @Test func theLengthLimitHolds() async {
        let run = await runConfigured(
            """
            saga main {
              var xs = []
              var s = ""
              for i in range(3) {
                try { xs = xs + [i, i] } catch e { log e.kind }
                try { s = s + "ab" } catch e { log e.kind }
              }
              log xs
              log s
            }
            """
        ) { $0.maxLength = 5 }
        #expect(run.lines == ["RangeError", "RangeError", "[0,0,1,1]", "abab"])
    }

    /// In a reducer: the same values, a shared list kept, a failed `+` reported as `+`
    /// reports it (and the reducer's changes rolled back), and the length limit.
    @Test func aReducersVariableAppendsGiveTheValuesAdditionGives() async {
        let run = await runConfigured(
            """
            state { xs: [], s: "", kept: [], n: 0 }
            reduce "go" as a {
              var xs = []
              var s = ""
              var n = 1
              let before = xs
              for i in range(a.n) { xs = xs + [i]; s = s + "\\(i)"; n = n + i }
              state.xs = xs
              state.s = s
              state.kept = before
              state.n = n
            }
            reduce "bad" as a {
              var xs = [1]
              state.n = 99
              xs = xs + a.v
            }
            reduce "long" as a {
              var xs = []
              for i in range(3) { xs = xs + [i, i] }
              state.n = 98
            }
            """,
            input: [
                #"{"type":"go","n":4}"#, #"{"type":"bad","v":2}"#, #"{"type":"bad","v":"a"}"#, #"{"type":"long"}"#,
            ]
        ) { $0.maxLength = 5 }
        #expect(run.state.canonicalJSON == #"{"kept":[],"n":7,"s":"0123","xs":[0,1,2,3]}"#)
        #expect(run.errors.count == 3)
        #expect(run.errors.contains { $0.contains("cannot add list and number") })
        #expect(run.errors.contains { $0.contains("cannot add list and string") })
        #expect(run.errors.contains { $0.contains("would be longer than 5") })
    }

    /// Through a path of a saga's variable (`r.items = r.items + [i]`, `lists[0] = …`): the
    /// values `+` gives, the old record kept by a variable that shares it, and the errors of
    /// reading the path and of `+`, the variable left as it was.
    @Test func aPathOfASagasVariableIsUpdatedInPlace() async {
        let run = await runSaga(
            """
            saga main {
              var r = {items: [], s: "", n: 1, nested: {l: [0]}}
              let before = r
              for i in range(3) {
                r.items = r.items + [i]; r.s = r.s + "\\(i)"; r.n = r.n * 2; r.nested.l = r.nested.l + [i]
              }
              log r
              log before
              var lists = [[1]]
              lists[0] = lists[0] + [2]
              log lists
              var e = {items: [1], s: "a"}
              try { e.items = e.items + 2 } catch x { log x.message }
              try { e.missing.x = e.missing.x + 1 } catch x { log x.message }
              try { lists[3] = lists[3] + [1] } catch x { log x.message }
              try { e.s.x = e.s.x + "b" } catch x { log x.message }
              log e
            }
            """)
        #expect(
            run.lines == [
                #"{"items":[0,1,2],"n":8,"nested":{"l":[0,0,1,2]},"s":"012"}"#,
                #"{"items":[],"n":1,"nested":{"l":[0]},"s":""}"#, "[[1,2]]", "cannot add list and number",
                "cannot add null and number", "cannot add null and list", "cannot read '.x' of a string",
                #"{"items":[1],"s":"a"}"#,
            ])
    }

    /// The same through a path of a reducer's variable; a failed update fails the reducer,
    /// which leaves the state as it was.
    @Test func aPathOfAReducersVariableIsUpdatedInPlace() async {
        let run = await runConfigured(
            """
            state { out: null }
            reduce "go" as a {
              var r = {items: [], s: "", n: 1, nested: {l: [0]}}
              let before = r
              for i in range(3) {
                r.items = r.items + [i]; r.s = r.s + "\\(i)"; r.n = r.n * 2; r.nested.l = r.nested.l + [i]
              }
              var lists = [[1]]
              lists[0] = lists[0] + [2]
              state.out = [r, before, lists]
            }
            reduce "bad" as a {
              var e = {items: [1], s: "a"}
              state.out = 1
              if a.k == 1 { e.items = e.items + 2 }
              if a.k == 2 { e.missing.x = e.missing.x + 1 }
              if a.k == 3 { e.s.x = e.s.x + "b" }
            }
            """,
            input: [#"{"type":"go"}"#] + (1...3).map { #"{"type":"bad","k":\#($0)}"# })
        #expect(
            run.state.canonicalJSON
                == #"{"out":[{"items":[0,1,2],"n":8,"nested":{"l":[0,0,1,2]},"s":"012"},"#
                + #"{"items":[],"n":1,"nested":{"l":[0]},"s":""},[[1,2]]]}"#)
        #expect(run.errors.count == 3)
        #expect(run.errors.contains { $0.contains("cannot add list and number") })
        #expect(run.errors.contains { $0.contains("cannot add null and number") })
        #expect(run.errors.contains { $0.contains("cannot read '.x' of a string") })
    }
}
