import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// `put "t"` and `put "t" {k: literal, …}` make their action once, when the statement compiles,
/// and share it between its runs (`LiteralAction`): the sagas and reducers must not be able to
/// tell.
@Suite struct ConstantActionTests {
    /// Each taker gets the action as written, even after another changed its own copy.
    @Test func aSharedActionIsStillAValue() async {
        let run = await runSaga(
            """
            saga main {
              loop {
                var a = take "t"
                log "\\(a.n) \\(len(keys(a)))"
                a.n = a.n + 10
                a.extra = true
              }
            }
            saga putter { for i in range(3) { put "t" { n: 1 } } }
            """)
        #expect(run.lines == ["1 2", "1 2", "1 2"])
        #expect(run.status == .success)
    }

    /// A literal action is made when its statement compiles: the code's `put` holds it.
    @Test func aLiteralActionIsMadeWhenItsStatementCompiles() throws {
        let at = SourceLocation(file: 0, line: 1, column: 1)
        let put = Stmt.effect(
            .put(.literal("add", at), .record([RecordField(key: "by", value: .literal(.int(1), at))], at), at), at)
        let code = try #require(Code(sagaBody: [put], slotCount: 0))
        #expect(code.instructions == [.put(0)])
        #expect(code.puts[0].action == ["type": "add", "by": 1])
        // A type alone is kept as its string (`Record.Storage.typed`).
        #expect(LiteralAction.typeOnly("tick") == ["type": "tick"])
    }

    @Test func emptyPayloadsOfDifferentTypesKeepTheirTypes() async {
        let run = await runSaga(
            """
            saga watch { loop { let a = take "*"; log a.type } }
            saga putter {
              for i in range(2) { put "a" {}; put "b" {}; put "c" }
            }
            """)
        #expect(run.lines == ["a", "b", "c", "a", "b", "c"])
    }

    /// More types, and more sites with a payload, than the first few looked through in order.
    @Test func manySitesEachGetTheirOwnAction() async {
        let numbers = Array(1...12)
        let puts = numbers.map { "put \"t\($0)\"; put \"p\($0)\" { n: \($0) }" }.joined(separator: "; ")
        let run = await runSaga(
            """
            saga watch { loop { let a = take "*"; log "\\(a.type) \\(a.n ?? 0)" } }
            saga putter { for i in range(2) { \(puts) } }
            """)
        let once = numbers.flatMap { ["t\($0) 0", "p\($0) \($0)"] }
        #expect(run.lines == once + once)
    }

    /// A literal payload that names `type` is refused by the checker; one computed at run
    /// time fails at every run.
    @Test func aPayloadWithATypeIsRefusedOrFailsEachTime() async {
        let literal = await runSaga(#"saga main { put "t" { type: "u" } }"#)
        #expect(literal.status == nil)
        #expect(literal.errors.joined().contains(#"the payload of put "t" must not hold 'type'"#))
        let run = await runSaga(
            """
            saga main {
              for i in range(2) {
                let payload = { type: "u" }
                try { put "t" payload } catch e { log e.message }
              }
            }
            """)
        #expect(run.lines == Array(repeating: #"the payload of put "t" must not hold 'type'"#, count: 2))
    }

    /// A payload that is not all literals is evaluated at each run.
    @Test func aComputedPayloadIsEvaluatedEachTime() async {
        let run = await runSaga(
            """
            saga watch { loop { let a = take "t"; log "\\(a.n) \\(a.k)" } }
            saga putter { for i in range(3) { put "t" { n: i, k: "x" } } }
            """)
        #expect(run.lines == ["0 x", "1 x", "2 x"])
    }
}
