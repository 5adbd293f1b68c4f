import Foundation
import SagaCore
import SagaLanguage
import SagaTestSupport
import Synchronization
import Testing

@testable import SagaRuntime

/// The table of calls in flight forgets a cancelled call, also once its Swift task finishes
/// (a host function need not notice cancellation): nothing is kept for it.
@Suite struct HostCallTableTests {
    @Test func theResultOfACancelledCallIsNotKept() async {
        let table = HostCallTable(inCallOrder: true)
        let task = SagaTask(
            id: 1, name: "t", location: .unknown, kind: .root, parent: nil, env: [],
            body: .none)
        let gate = OpenableGate()
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

/// Middleware work that reports its own end (a file store's writer thread calling back) is
/// delivered as work run in a `Task` is: under virtual time, in the order it was started,
/// whichever finished first.
@Suite struct ReportedWorkTests {
    @Test func workThatReportsItsEndIsDeliveredInStartOrder() async {
        let table = HostCallTable(inCallOrder: true)
        let finishers = Mutex<[@Sendable ([Value]) -> Void]>([])
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        #expect(table.hasInFlight)
        let (first, second) = finishers.withLock { ($0[0], $0[1]) }
        // The second piece of work ends first, and from another thread.
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                second(["second"])
                c.resume()
            }
        }
        first(["first"])
        var delivered: [Value] = []
        while let done = await table.nextInCallOrder() {
            if case .success(.list(let actions)) = done.result { delivered += actions }
        }
        #expect(delivered == ["first", "second"])
        #expect(!table.hasInFlight)
    }

    @Test func inRealTimeReportedWorkIsDeliveredInStartOrderOnceFinished() async {
        let table = HostCallTable(inCallOrder: false)
        let finishers = Mutex<[@Sendable ([Value]) -> Void]>([])
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        let (first, second) = finishers.withLock { ($0[0], $0[1]) }
        second(["second"])
        #expect(table.finishedCalls().map(\.result) == [.success(.list(["second"]))])
        #expect(table.hasInFlight)
        first(["first"])
        #expect(table.finishedCalls().map(\.result) == [.success(.list(["first"]))])
        #expect(!table.hasInFlight)
        // Both finished before the scheduler looked: delivered in the order they started.
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        table.startDispatching(reporting: { finish in finishers.withLock { $0.append(finish) } })
        let (third, fourth) = finishers.withLock { ($0[2], $0[3]) }
        fourth(["fourth"])
        third(["third"])
        #expect(table.finishedCalls().map(\.result) == [.success(.list(["third"])), .success(.list(["fourth"]))])
        #expect(!table.hasInFlight)
        #expect(table.undeliveredCount == 0)
    }

    @Test func workThatFinishesAtOnceIsDeliveredToo() async {
        let table = HostCallTable(inCallOrder: false)
        table.startDispatching(reporting: { finish in finish(["now"]) })
        await table.inbox.wait()
        #expect(table.finishedCalls().map(\.result) == [.success(.list(["now"]))])
        #expect(!table.hasInFlight)
    }
}
