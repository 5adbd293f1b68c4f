import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// An app may keep an interpreter's store (``Interpreter/store``) after the interpreter is
/// gone.
///
/// Its saga middleware must then stop reaching for the interpreter (which it holds unowned)
/// and only pass actions on to the reducers.
@Suite struct StoreLifetimeTests {
    @Test func aStoreKeptAfterItsInterpreterStillReduces() throws {
        let program = try #require(
            Frontend().compile(
                source: """
                    state { count: 0 }
                    reduce "add" as a { state.count = state.count + a.by }
                    saga main { every "add" as a { log "seen" } }
                    """, path: "kept.saga"
            ).program)
        weak var gone: Interpreter?
        var kept: Store<Value, Value>?
        do {
            let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: BufferedOutput())
            gone = interpreter
            kept = interpreter.store
        }
        #expect(gone == nil)
        let store = try #require(kept)
        store.dispatch(["type": "add", "by": 2])
        store.dispatch(["type": "add", "by": 3])
        #expect(store.state["count"] == .int(5))
    }
}
