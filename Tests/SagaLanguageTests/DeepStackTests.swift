import Dispatch
import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// The front end's recursion runs on a stack of its own (``DeepStack``), whatever stack the
/// thread that asks for it has.
@Suite struct DeepStackTests {
    /// Runs `body` on a new thread with a `bytes` stack and waits for it.
    private func onThread<T: Sendable>(stackBytes bytes: Int, _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        let thread = Thread {
            result.value = body()
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return result.value
    }

    /// The deepest nesting the parser accepts, in every form that nests, checked, formatted and
    /// printed on a thread whose 256 KiB stack could not hold it.
    @Test func theDeepestProgramIsCheckedOnAThreadWithASmallStack() {
        let depth = 250
        let blocks = String(repeating: "if true {\n", count: depth) + "log 1\n" + String(repeating: "}\n", count: depth)
        let parens = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        let strings = String(repeating: #""\("#, count: depth) + "1" + String(repeating: #")""#, count: depth)
        let lists = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let source = "saga main {\n\(blocks)log \(parens)\nlog \(strings)\nlog \(lists)\n}\n"
        let outcome = onThread(stackBytes: 256 << 10) {
            let checked = Frontend().check(source: source, path: "deep.saga")
            let compiled = Frontend().compile(source: source, path: "deep.saga")
            let formatted = SagaFormatter.format(source)
            let parsed = Parser.parse(SourceFile(path: "deep.saga", text: source), fileIndex: 0)
            return (
                checked.diagnostics.map(\.message), compiled.program != nil, (try? formatted.get()) != nil,
                parsed.diagnostics.count
            )
        }
        #expect(outcome?.0 == [])
        #expect(outcome?.1 == true)
        #expect(outcome?.2 == true)
        #expect(outcome?.3 == 0)
    }

    /// Work run on the deep stack gives its result or its error, and work it starts in turn
    /// stays on its thread.
    @Test func resultsAndErrorsComeBack() {
        struct Failure: Error, Equatable {}
        #expect(DeepStack.run { DeepStack.run { 42 } } == 42)
        #expect(throws: Failure()) { try DeepStack.run { () throws(Failure) -> Int in throw Failure() } }
    }
}

/// A value set on one thread and read on another after a semaphore orders the two.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
