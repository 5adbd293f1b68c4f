import SagaStore
import Testing

@Suite struct TaskCancellationTests {
    /// A search that answers after `seconds`: the shape of work that cancel-in-flight tames.
    static func search(_ text: String, seconds: Int) -> TaskStory.Work {
        { context in
            try await context.sleep(for: .seconds(seconds))
            await context.dispatch(.note("results for \(text)"))
        }
    }

    @Test func cancelInFlightTheSecondRequestCancelsTheFirstAndOnlyItsResultLands() {
        let story = TaskStory()
        story.start("search", policy: .cancelInFlight, Self.search("sw", seconds: 3))
        story.advance(seconds: 1)
        story.start("search", policy: .cancelInFlight, Self.search("swift", seconds: 3))
        story.thread.runUntilIdle()
        #expect(story.tasks.runningTaskCount == 1)
        // The first search's sleep was cancelled, not merely left to time out.
        #expect(story.clock.sleeperCount == 1)

        story.advance(seconds: 5)
        #expect(story.log == ["results for swift"])
        #expect(story.tasks.runningTaskIDs.isEmpty)
    }

    @Test func cancelByIDStopsEveryTaskWithThatIDAndNoOther() {
        let story = TaskStory()
        story.start("poll", Self.search("a", seconds: 2))
        story.start("poll", Self.search("b", seconds: 2))
        story.start("other", Self.search("c", seconds: 2))
        story.thread.runUntilIdle()

        story.store.dispatch(.task(.cancel("poll")))
        #expect(story.tasks.runningTaskIDs == ["other"])
        story.advance(seconds: 2)
        #expect(story.log == ["results for c"])
    }

    @Test func cancelAllAndTheMiddlewaresOwnCancelStopTasks() {
        let story = TaskStory()
        story.start("a", Self.search("a", seconds: 1))
        story.start("b", Self.search("b", seconds: 1))
        story.start("c", Self.search("c", seconds: 1))
        story.tasks.cancel(id: "a")
        #expect(story.tasks.runningTaskIDs == ["b", "c"])
        story.store.dispatch(.task(.cancelAll))
        #expect(story.tasks.runningTaskIDs.isEmpty)
        story.advance(seconds: 1)
        #expect(story.log.isEmpty)

        story.start("d", Self.search("d", seconds: 1))
        story.tasks.cancelAll()
        story.advance(seconds: 1)
        #expect(story.log.isEmpty)
    }

    @Test func anOwnedTaskEndsWhenItsHandleIsCancelled() {
        let story = TaskStory()
        let screen = TaskHandle()
        story.start("thumbnails", ownership: .owned(screen), Self.search("thumbnails", seconds: 2))
        story.start("feed", ownership: .owned(screen), Self.search("feed", seconds: 1))
        story.advance(seconds: 1)
        #expect(story.log == ["results for feed"])
        // The handle lets go of a task once it has ended.
        #expect(screen.taskCount == 1)

        screen.cancel()
        #expect(story.tasks.runningTaskIDs.isEmpty)
        #expect(screen.taskCount == 0)
        story.advance(seconds: 5)
        #expect(story.log == ["results for feed"])
    }

    @Test func anOwnedTaskEndsWhenItsHandleIsReleased() {
        let story = TaskStory()
        var screen: TaskHandle? = TaskHandle()
        weak let released = screen
        if let screen {
            story.start("thumbnails", ownership: .owned(screen), Self.search("thumbnails", seconds: 2))
        }
        story.advance(seconds: 1)
        #expect(story.tasks.runningTaskIDs == ["thumbnails"])

        screen = nil  // the screen goes away
        #expect(released == nil)
        #expect(story.tasks.runningTaskIDs.isEmpty)
        story.advance(seconds: 5)
        #expect(story.log.isEmpty)
    }

    @Test func aTaskStartedWithACancelledHandleNeverRuns() {
        let story = TaskStory()
        let recorder = Recorder()
        let screen = TaskHandle()
        screen.cancel()
        story.start(ownership: .owned(screen)) { _ in recorder.add("ran") }
        #expect(story.tasks.runningTaskCount == 0)
        story.thread.runUntilIdle()
        #expect(recorder.lines.isEmpty)
    }

    // MARK: Races. Decision: an action a task dispatches lands only if the task is still running
    // when the store's thread takes the action up. Once a cancel has been processed, nothing from
    // the task lands, even an action it sent before the cancel.

    @Test func raceADispatchAlreadyOnItsWayIsDroppedWhenTheCancelIsProcessedFirst() {
        let story = TaskStory()
        story.start("load", Self.search("load", seconds: 1))
        story.thread.runUntilIdle()
        story.clock.advance(by: .seconds(1))
        // The work runs on to its dispatch while the store's thread is busy...
        story.thread.runTaskStepsUntilIdle()
        #expect(story.thread.pendingStoreHops == 1)
        // ...and the store takes up the cancel before the dispatch.
        story.store.dispatch(.task(.cancel("load")))
        story.thread.runUntilIdle()

        #expect(story.log.isEmpty)
        #expect(story.tasks.runningTaskIDs.isEmpty)
    }

    @Test func raceACancelBetweenTheLastAwaitAndTheDispatchStopsTheDispatch() {
        let story = TaskStory()
        let recorder = Recorder()
        story.start("load") { context in
            try await context.sleep(for: .seconds(1))
            // The sleep ended normally: the cancel came after it had woken.
            recorder.add("woke, cancelled: \(context.isCancelled)")
            await context.dispatch(.note("loaded"))
            recorder.add("dispatch returned")
        }
        story.thread.runUntilIdle()
        story.clock.advance(by: .seconds(1))
        #expect(story.thread.pendingCount == 1)  // woken, not yet run

        story.store.dispatch(.task(.cancel("load")))
        story.thread.runUntilIdle()

        #expect(recorder.lines == ["woke, cancelled: true", "dispatch returned"])
        #expect(story.log.isEmpty)
    }

    @Test func raceCancelInFlightDropsTheFirstResultEvenWhenItIsAlreadyOnItsWay() {
        let story = TaskStory()
        story.start("search", policy: .cancelInFlight, Self.search("sw", seconds: 1))
        story.thread.runUntilIdle()
        story.clock.advance(by: .seconds(1))
        story.thread.runTaskStepsUntilIdle()
        #expect(story.thread.pendingStoreHops == 1)  // "results for sw" is on its way

        story.start("search", policy: .cancelInFlight, Self.search("swift", seconds: 1))
        story.advance(seconds: 1)
        #expect(story.log == ["results for swift"])
    }

    @Test func withoutACancelTheDispatchOnItsWayLands() {
        // The control for the races above: the staging alone does not lose the action.
        let story = TaskStory()
        story.start("load", Self.search("load", seconds: 1))
        story.thread.runUntilIdle()
        story.clock.advance(by: .seconds(1))
        story.thread.runTaskStepsUntilIdle()
        #expect(story.thread.pendingStoreHops == 1)
        story.thread.runUntilIdle()
        #expect(story.log == ["results for load"])
    }
}
