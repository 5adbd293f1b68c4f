import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// Reducers an embedding passes (`Interpreter(…, reducers:)`, the persistence reducer in
/// `sagarun`) run after the program's own, in the order given, for every action.
@Suite struct ExtraReducerTests {
    /// A reducer that appends `name` to `state.seen` for each action.
    static func appending(_ name: String) -> (inout Value, Value) -> Void {
        { state, _ in
            guard case .record(var r) = state else { return }
            r["seen"] = .string((r["seen"]?.stringValue ?? "") + name)
            state = .record(r)
        }
    }

    static let source = """
        state { seen: "" }
        reduce "tick" as a { state.seen = state.seen + "p" }
        saga main { put "tick"; put "other" }
        """

    @Test(arguments: [0, 1, 2, 3]) func theyRunAfterTheProgramsOwnInOrder(count: Int) async throws {
        let program = try #require(Frontend().compile(source: Self.source, path: "test.saga").program)
        let names = ["a", "b", "c"].prefix(count)
        let interpreter = Interpreter(
            program: program, options: .init(virtualTime: true), reducers: names.map(Self.appending),
            output: BufferedOutput())
        let status = await interpreter.run(input: nil)
        #expect(status == .success)
        // `tick`: the program's reducer, then each extra; `other`: the extras alone.
        let each = names.joined()
        #expect(interpreter.state["seen"] == .string("p" + each + each))
    }
}
