import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A runner of the reducers of `source`, outside an interpreter.
func reducerRunner(_ source: String) throws -> ReducerRunner {
    let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
    return ReducerRunner(program: program, output: BufferedOutput())
}

/// A list of `items` with room for 64, whose buffer stays where it is while it is extended in
/// place; and the address of that buffer, to tell whether it was copied.
func roomyList(_ items: [Value]) -> Value {
    var list = items
    list.reserveCapacity(64)
    return .list(list)
}

/// Where a list's items are, or nil for another value.
func listBufferAddress(_ list: Value?) -> UnsafeRawPointer? {
    guard case .list(let items)? = list else { return nil }
    return items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}
