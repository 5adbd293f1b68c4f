import SagaCore
import Testing

@testable import SagaRuntime

/// Mocked calls made at once (the entries of `all`, compensations, `finally` blocks) take
/// their lines in the order the sagas make them, however their results are then awaited: a
/// golden test with mocks gives the same transcript every run.
@Suite struct MockCallOrderTests {
    @Test func concurrentCallsTakeTheirLinesInCallOrderEveryRun() async throws {
        let source = """
            extern func undo(x)
            saga main {
              let r = all [call undo(1), call undo(2), call undo(3)]
              log r
            }
            """
        let lines = """
            {"call":"undo","args":[1],"result":"one"}
            {"call":"undo","args":[2],"result":"two"}
            {"call":"undo","args":[3],"result":"three"}
            """
        // Without the order, one run in a dozen or so took the lines in another order.
        for _ in 0..<500 {
            let mocks = try HostMocks(jsonl: lines)
            let run = await runSaga(source, host: mocks.functions())
            #expect(run.errors == [])
            #expect(run.lines == [#"["one","two","three"]"#])
            #expect(mocks.problems.isEmpty)
            if !run.errors.isEmpty { break }
        }
    }

    @Test func aMockedFunctionReplacedByAnotherIsAskedNoMore() async throws {
        let mocks = try HostMocks(jsonl: #"{"call":"f","args":[],"result":1}"#)
        var real = HostFunctions()
        real.register("f") { _ in .int(2) }
        let host = mocks.functions().merging(real)
        #expect(host.answers["f"] == nil)
        let run = await runSaga("extern func f()\nsaga main { let x = call f(); log x }", host: host)
        #expect(run.lines == ["2"])
    }
}
