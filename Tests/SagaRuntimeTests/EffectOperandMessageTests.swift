import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// What an effect says of an operand it cannot use: the effect by its own name, and what it
/// needs.
@Suite struct EffectOperandMessageTests {
    @Test func eachEffectNamesItselfAndWhatItNeeds() async {
        let run = await runSaga(
            """
            saga main {
              let n = 2.5
              let nothing = null
              try { retry n call f() } catch e { log e.message }
              try { let xs = all for i in nothing { delay i } } catch e { log e.message }
              let t = fork { delay 1 }
              try { join [t, 5] } catch e { log e.message }
              try { cancel [t, "x"] } catch e { log e.message }
            }
            func f() { return 1 }
            """)
        #expect(
            run.lines == [
                "retry needs a whole number of at least 1, got 2.5",
                "all for … in needs a list or a record, got null",
                "join needs tasks, got number in the list",
                "cancel needs tasks, got string in the list",
            ])
    }
}
