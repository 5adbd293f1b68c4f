import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `xs = xs + [x]` and `s = s + "…"` on a saga's own variable extend it where it is.
///
/// What a run prints must be what building a new list or string gives: the same values, the
/// same errors, and no change to another variable that shares the old value.
@Suite struct VariableAppendTests {
    /// In a loop that runs lowered, in one that does not (a `try` in its body), and in a
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
}
