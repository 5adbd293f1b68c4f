import SagaStore
import Synchronization
import Testing

/// The app of the task stories: a screen whose work notes what it does in a log.
enum Screen {
    struct State: Sendable, Equatable {
        var log: [String] = []
        var progress = 0
        var query = ""
    }

    enum Action: Sendable {
        case task(TaskCommand<State, Action>)
        case note(String)
        case progress(Int)
        case query(String)
    }

    static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .task: state.log.append("a task command reached the reducer")
        case .note(let line): state.log.append(line)
        case .progress(let value): state.progress = value
        case .query(let text): state.query = text
        }
    }
}

/// Lines written from task work, which runs off the test's task.
final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

/// Errors the middleware reported, on the store's thread.
final class ErrorReports {
    var lines: [String] = []
}

/// A screen store with a task middleware, a manual store thread and a virtual clock: nothing
/// runs until the story says so.
final class TaskStory {
    typealias Work = TaskAction<Screen.State, Screen.Action>.Work

    let thread = ManualStoreThread()
    let clock = VirtualTaskClock()
    let errors = ErrorReports()
    let tasks: TaskMiddleware<Screen.State, Screen.Action>
    let store: Store<Screen.State, Screen.Action>

    init() {
        let errors = self.errors
        tasks = TaskMiddleware(
            thread: thread, clock: clock,
            onError: { id, error in errors.lines.append("\(id): \(error)") },
            extract: { if case .task(let command) = $0 { command } else { nil } })
        store = Store(initialState: Screen.State(), reducer: Screen.reduce, middleware: [tasks.makeMiddleware()])
    }

    /// Dispatches a task; it does not run until the thread is pumped.
    func start(
        _ id: TaskID = .unique(), policy: TaskPolicy = .parallel, ownership: TaskOwnership = .retained,
        _ work: @escaping Work
    ) {
        store.dispatch(.task(.run(TaskAction(id: id, policy: policy, ownership: ownership, work: work))))
    }

    /// Pumps the thread and moves the clock by `seconds`.
    func advance(seconds: Int) {
        thread.advance(clock, by: .seconds(seconds))
    }

    var log: [String] { store.state.log }
}

struct BoomError: Error, CustomStringConvertible {
    var description: String { "boom" }
}

@Suite struct TaskMiddlewareTests {
    @Test func aThunkDispatchesProgressAndReadsTheStateOnTheStoresThread() {
        let story = TaskStory()
        story.store.dispatch(.query("swift"))
        story.start("load") { context in
            await context.dispatch(.progress(1))
            try await context.sleep(for: .seconds(1))
            await context.dispatch(.progress(2))
            let query = try await context.read { $0.query }
            await context.dispatch(.note("loaded \(query)"))
            // A read after a dispatch sees it.
            await context.dispatch(.query("saga"))
            let state = try await context.getState()
            await context.dispatch(.note("now \(state.query) at \(state.progress)"))
        }
        // Dispatching the command only starts the task: its work waits for the thread.
        #expect(story.store.state.progress == 0)
        #expect(story.tasks.runningTaskIDs == ["load"])

        story.thread.runUntilIdle()
        #expect(story.store.state.progress == 1)
        #expect(story.clock.sleeperCount == 1)

        story.advance(seconds: 1)
        #expect(story.store.state.progress == 2)
        #expect(story.log == ["loaded swift", "now saga at 2"])
        #expect(story.tasks.runningTaskIDs.isEmpty)
        #expect(story.errors.lines.isEmpty)
    }

    @Test func aRetainedTaskIsKeptUntilItsWorkEndsThenForgotten() {
        let story = TaskStory()
        // Nobody but the middleware holds this task.
        story.start("sync") { context in
            try await context.sleep(for: .seconds(5))
            await context.dispatch(.note("synced"))
        }
        story.advance(seconds: 4)
        #expect(story.tasks.runningTaskIDs == ["sync"])
        #expect(story.log.isEmpty)

        story.advance(seconds: 1)
        #expect(story.log == ["synced"])
        #expect(story.tasks.runningTaskIDs.isEmpty)
        #expect(story.tasks.runningTaskCount == 0)
    }

    @Test func errorsThrownByWorkAreReportedButCancellationIsNot() {
        let story = TaskStory()
        story.start("fetch") { context in
            await context.dispatch(.note("fetching"))
            throw BoomError()
        }
        story.start("gives up") { _ in throw CancellationError() }
        story.start("stubborn") { context in
            // Throws its own error when cancelled: a cancelled task's errors are not news.
            do { try await context.sleep(for: .seconds(1)) } catch { throw BoomError() }
        }
        story.thread.runUntilIdle()
        story.store.dispatch(.task(.cancel("stubborn")))
        story.advance(seconds: 2)

        #expect(story.log == ["fetching"])
        #expect(story.errors.lines == ["fetch: boom"])
        #expect(story.tasks.runningTaskIDs.isEmpty)
    }

    @Test func taskCommandsStopAtTheMiddlewareAndOtherActionsPassOn() {
        let story = TaskStory()
        story.start { _ in }
        story.store.dispatch(.task(.cancel("nothing")))
        story.store.dispatch(.task(.cancelAll))
        story.store.dispatch(.note("passed"))
        story.thread.runUntilIdle()
        #expect(story.log == ["passed"])
    }

    @Test func releasingTheStoreCancelsItsTasks() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        var store: Store<Screen.State, Screen.Action>? = Store(
            initialState: Screen.State(), reducer: Screen.reduce,
            middleware: [
                TaskMiddleware<Screen.State, Screen.Action>(thread: thread, clock: clock) {
                    if case .task(let command) = $0 { command } else { nil }
                }.makeMiddleware()
            ])
        store?.dispatch(
            .task(
                .run(
                    TaskAction { context in
                        do { try await context.sleep(for: .seconds(10)) } catch { recorder.add("cancelled") }
                        await context.dispatch(.note("into nothing"))
                    })))
        thread.runUntilIdle()
        #expect(clock.sleeperCount == 1)

        store = nil
        thread.runUntilIdle()
        #expect(recorder.lines == ["cancelled"])
        #expect(clock.sleeperCount == 0)
    }

    /// An app that keeps its task middleware keeps its tasks running after the store has gone:
    /// they then read nothing and dispatch into nothing.
    @Test func tasksOfAMiddlewareTheAppKeepsOutliveTheStoreQuietly() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        let tasks = TaskMiddleware<Screen.State, Screen.Action>(thread: thread, clock: clock) {
            if case .task(let command) = $0 { command } else { nil }
        }
        var store: Store<Screen.State, Screen.Action>? = Store(
            initialState: Screen.State(), reducer: Screen.reduce, middleware: [tasks.makeMiddleware()])
        store?.dispatch(
            .task(
                .run(
                    TaskAction { context in
                        try await context.sleep(for: .seconds(10))
                        do {
                            _ = try await context.read { $0.log }
                            recorder.add("read a state")
                        } catch {
                            recorder.add("no state to read")
                        }
                        await context.dispatch(.note("into nothing"))
                        recorder.add("dispatched")
                    })))
        thread.runUntilIdle()
        #expect(clock.sleeperCount == 1)

        store = nil
        clock.advance(by: .seconds(10))
        thread.runUntilIdle()
        #expect(recorder.lines == ["no state to read", "dispatched"])
        #expect(tasks.runningTaskIDs.isEmpty)
    }
}
