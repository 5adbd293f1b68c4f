import SagaStore
import Testing

@Suite struct TaskPolicyTests {
    /// Work that notes when it starts and ends, in virtual seconds.
    static func job(_ name: String, seconds: Int, clock: VirtualTaskClock) -> TaskStory.Work {
        { context in
            await context.dispatch(.note("\(name) starts at \(clock.now)"))
            try await context.sleep(for: .seconds(seconds))
            await context.dispatch(.note("\(name) ends at \(clock.now)"))
        }
    }

    @Test func parallelTasksWithOneIDRunSideBySide() {
        let story = TaskStory()
        story.start("sync", policy: .parallel, Self.job("a", seconds: 2, clock: story.clock))
        story.start("sync", policy: .parallel, Self.job("b", seconds: 1, clock: story.clock))
        story.thread.runUntilIdle()
        #expect(story.tasks.runningTaskCount == 2)
        story.advance(seconds: 2)
        #expect(
            story.log == [
                "a starts at 0.0 seconds", "b starts at 0.0 seconds", "b ends at 1.0 seconds", "a ends at 2.0 seconds",
            ])
    }

    @Test func aQueuedTaskStartsWhenTheTasksBeforeItHaveEnded() {
        let story = TaskStory()
        story.start("save", policy: .queue, Self.job("a", seconds: 2, clock: story.clock))
        story.start("save", policy: .queue, Self.job("b", seconds: 1, clock: story.clock))
        story.start("save", policy: .queue, Self.job("c", seconds: 1, clock: story.clock))
        story.advance(seconds: 10)
        #expect(
            story.log == [
                "a starts at 0.0 seconds", "a ends at 2.0 seconds",
                "b starts at 2.0 seconds", "b ends at 3.0 seconds",
                "c starts at 3.0 seconds", "c ends at 4.0 seconds",
            ])
    }

    @Test func aQueuedTaskStartsAtOnceWhenTheOneBeforeItIsCancelled() {
        let story = TaskStory()
        story.start("save", policy: .queue, Self.job("a", seconds: 5, clock: story.clock))
        story.start("save", policy: .queue, Self.job("b", seconds: 1, clock: story.clock))
        story.advance(seconds: 1)
        // Cancelling by id cancels the waiting task too.
        story.tasks.cancel(id: "save")
        story.start("save", policy: .queue, Self.job("c", seconds: 1, clock: story.clock))
        story.advance(seconds: 1)
        #expect(story.log == ["a starts at 0.0 seconds", "c starts at 1.0 seconds", "c ends at 2.0 seconds"])
    }

    @Test func dropIfRunningIgnoresATaskWhileOneWithItsIDIsInFlight() {
        let story = TaskStory()
        story.start("refresh", policy: .dropIfRunning, Self.job("a", seconds: 2, clock: story.clock))
        story.advance(seconds: 1)
        story.start("refresh", policy: .dropIfRunning, Self.job("b", seconds: 2, clock: story.clock))
        #expect(story.tasks.runningTaskCount == 1)
        story.advance(seconds: 1)
        story.start("refresh", policy: .dropIfRunning, Self.job("c", seconds: 1, clock: story.clock))
        story.advance(seconds: 1)
        #expect(
            story.log == [
                "a starts at 0.0 seconds", "a ends at 2.0 seconds", "c starts at 2.0 seconds", "c ends at 3.0 seconds",
            ])
    }

    @Test func taskIDsAreEqualByTypeAndValueAndUniqueIDsAreFresh() {
        #expect(TaskID("search") == "search")
        #expect(TaskID(7) == TaskID(7))
        #expect(TaskID(7) != TaskID("7"))
        #expect(TaskID.unique() != TaskID.unique())
        #expect(Set([TaskID("a"), "a", TaskID(1)]).count == 2)
        #expect(TaskID("search").description == "search")
        #expect(TaskID.unique().description.hasPrefix("#"))
    }
}
