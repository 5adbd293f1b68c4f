import SagaCore
import Testing

/// The results of `all`, `race` and `join` of a list nest their entries' values one level
/// deeper: past the deepest a value may nest, they fail with a `RangeError`, as a list or
/// record literal does (a value built so 200,000 levels deep crashed the run).
@Suite struct CombinatorDepthTests {
    @Test(arguments: [
        "let x = all [call r(n - 1)]",
        "let x = all { a: call r(n - 1) }",
        "let x = race { a: call r(n - 1) }",
        "let t = fork r(n - 1); let x = join [t]",
    ])
    func aResultNestedTooDeeplyIsARangeError(wrap: String) async {
        let run = await runSaga(
            """
            func r(n) {
              if n == 0 { return 0 }
              \(wrap)
              return x
            }
            saga main {
              try { let v = call r(600); log "built" } catch e { log e.kind }
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["RangeError"])
    }

    @Test func aResultWithinTheLimitIsBuilt() async {
        let run = await runSaga(
            """
            func r(n) {
              if n == 0 { return 0 }
              let x = all [call r(n - 1)]
              return x
            }
            saga main { let v = call r(500); log "built" }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["built"])
    }
}
