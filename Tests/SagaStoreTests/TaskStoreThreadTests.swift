import Dispatch
import SagaStore
import Testing

@Suite struct TaskStoreThreadTests {
    @Test func theManualThreadRunsHopsInOrderAndOnlyWhenPumped() async {
        let thread = ManualStoreThread()
        let recorder = Recorder()
        thread.post { recorder.add("first") }
        thread.post { recorder.add("second") }
        #expect(thread.pendingStoreHops == 2)
        #expect(recorder.lines.isEmpty)
        thread.runUntilIdle()
        #expect(recorder.lines == ["first", "second"])
        #expect(thread.pendingCount == 0)
    }

    @Test func theQueueThreadRunsBodiesOnItsQueue() async {
        let queue = DispatchQueue(label: "store")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "store")
        let thread = QueueStoreThread(queue: queue)
        let seen = await thread.run { DispatchQueue.getSpecific(key: key) }
        #expect(seen == "store")
        #expect(thread.taskExecutor == nil)
    }

    /// A store confined to a dispatch queue: made, dispatched to and read only on that queue.
    final class QueueApp: @unchecked Sendable {
        let store: Store<Screen.State, Screen.Action>

        init(thread: QueueStoreThread) {
            let tasks = TaskMiddleware<Screen.State, Screen.Action>(thread: thread) {
                if case .task(let command) = $0 { command } else { nil }
            }
            store = Store(initialState: Screen.State(), reducer: Screen.reduce, middleware: [tasks.makeMiddleware()])
        }
    }

    @Test func onADispatchQueueWithTheRealClockWorkHopsToTheStoreAndBack() async {
        let queue = DispatchQueue(label: "store")
        let thread = QueueStoreThread(queue: queue)
        let app = await thread.run { QueueApp(thread: thread) }
        let (logs, finished) = AsyncStream.makeStream(of: [String].self)
        await thread.run {
            app.store.dispatch(.query("swift"))
            app.store.dispatch(
                .task(
                    .run(
                        TaskAction { context in
                            try await context.sleep(for: .zero)
                            let query = try await context.read { $0.query }
                            await context.dispatch(.note("loaded \(query)"))
                            finished.yield(try await context.read { $0.log })
                        })))
        }
        var iterator = logs.makeAsyncIterator()
        #expect(await iterator.next() == ["loaded swift"])
    }
}
