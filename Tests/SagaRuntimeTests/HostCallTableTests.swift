import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// The table of calls in flight forgets a cancelled call, also once its Swift task finishes
/// (a host function need not notice cancellation): nothing is kept for it.
@Suite struct HostCallTableTests {
    @Test func theResultOfACancelledCallIsNotKept() async {
        let table = HostCallTable(inCallOrder: true)
        let task = SagaTask(
            id: 1, name: "t", location: .unknown, kind: .root, parent: nil, env: [],
            body: Block(statements: [], location: .unknown))
        let gate = Gate()
        let id = table.start(
            { _ in
                await gate.wait()
                return "late"
            }, [], task: task, token: 0)
        table.cancel(id)
        gate.open()
        // The call's task signals the inbox once it has finished, whether it kept the result or not.
        await table.inbox.wait()
        #expect(table.undeliveredCount == 0)
        #expect(!table.hasInFlight)
        #expect(await table.nextInCallOrder() == nil)
    }
}
