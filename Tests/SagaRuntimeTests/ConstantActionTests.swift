import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// `put "t"` and `put "t" {k: literal, …}` make their action once and share it between runs of
/// the statement (`ConstantActions`): the sagas and reducers must not be able to tell.
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

    /// A site's action is made once: the second `put` gets the first one's record, not a copy.
    @Test func aSitesActionIsMadeOnce() {
        var actions = ConstantActions()
        func storage(_ action: Value?) -> UnsafeRawPointer? {
            guard case .record(let r)? = action else { return nil }
            return r.storageIdentity
        }
        let fields = [RecordField(key: "by", value: .literal(.int(1), SourceLocation(file: 0, line: 1, column: 1)))]
        let first = actions.action(type: "add", fields: fields)
        #expect(first == ["type": "add", "by": 1])
        #expect(storage(first) != nil && storage(actions.action(type: "add", fields: fields)) == storage(first))
        // A type alone is kept as its string (`Record.Storage.typed`): no storage to share.
        let tick = actions.action(type: "tick")
        #expect(tick == ["type": "tick"] && storage(tick) == nil)
    }

    /// Sites are told apart by where their fields are; two arrays can be at one place (every
    /// empty array literal shares one), so the type is compared too.
    ///
    /// A site that finds the place taken gets `nil`, and its `put` builds the action itself.
    @Test func sitesThatShareTheirFieldsKeepTheirTypes() {
        var actions = ConstantActions()
        let empty: [RecordField] = []
        let none: [RecordField] = []
        #expect(actions.action(type: "a", fields: empty) == ["type": "a"])
        let other = actions.action(type: "b", fields: none)
        #expect(other == nil || other == ["type": "b"])
        #expect(actions.action(type: "a", fields: empty) == ["type": "a"])
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
