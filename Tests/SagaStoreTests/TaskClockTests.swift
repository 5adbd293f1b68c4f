import SagaStore
import Testing

@Suite struct TaskClockTests {
    /// Starts `body` on the manual thread, where it runs only when the thread is pumped.
    static func spawn(on thread: ManualStoreThread, _ body: @escaping @Sendable () async -> Void) {
        Task(executorPreference: thread) { await body() }
    }

    @Test func sleepersWakeInDeadlineOrderAndTiesInTheOrderTheyFellAsleep() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)] {
            Self.spawn(on: thread) {
                try? await clock.sleep(for: .seconds(seconds))
                recorder.add("\(name) at \(clock.now)")
            }
        }
        thread.runUntilIdle()
        #expect(clock.sleeperCount == 4)

        thread.advance(clock, by: .seconds(5))
        #expect(recorder.lines == ["a at 1.0 seconds", "b1 at 2.0 seconds", "b2 at 2.0 seconds", "c at 3.0 seconds"])
        #expect(clock.now == .seconds(5))
    }

    @Test func aSleepStartedDuringAnAdvanceWakesInTheSameAdvanceIfDue() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        Self.spawn(on: thread) {
            for _ in 0..<3 {
                try? await clock.sleep(for: .seconds(2))
                recorder.add("tick at \(clock.now)")
            }
        }
        thread.advance(clock, by: .seconds(5))
        #expect(recorder.lines == ["tick at 2.0 seconds", "tick at 4.0 seconds"])
        thread.advance(clock, by: .seconds(1))
        #expect(recorder.lines.count == 3)
    }

    @Test func aCancelledSleeperWakesAtOnceWithCancellationAndLeavesTheClock() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        let task = Task(executorPreference: thread) {
            do {
                try await clock.sleep(for: .seconds(10))
                recorder.add("slept")
            } catch {
                recorder.add("\(error is CancellationError ? "cancelled" : "other") at \(clock.now)")
            }
        }
        thread.runUntilIdle()
        #expect(clock.sleeperCount == 1)
        task.cancel()
        thread.runUntilIdle()
        #expect(recorder.lines == ["cancelled at 0.0 seconds"])
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingTheClockAloneWakesDueSleepersWithoutRunningThem() {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let recorder = Recorder()
        Self.spawn(on: thread) {
            try? await clock.sleep(for: .seconds(1))
            recorder.add("woke")
        }
        Self.spawn(on: thread) {
            try? await clock.sleep(for: .seconds(3))
            recorder.add("late")
        }
        thread.runUntilIdle()
        clock.advance(by: .seconds(2))
        #expect(clock.now == .seconds(2))
        #expect(clock.sleeperCount == 1)
        #expect(recorder.lines.isEmpty)
        thread.runUntilIdle()
        #expect(recorder.lines == ["woke"])

        // The late sleeper must end too: a task left asleep on the clock forever is a leak
        // (the clock keeps its continuation, the task keeps the clock), which
        // `swift test --sanitize=address` reports.
        thread.advance(clock, by: .seconds(1))
        #expect(recorder.lines == ["woke", "late"])
        #expect(clock.sleeperCount == 0)
    }
}
