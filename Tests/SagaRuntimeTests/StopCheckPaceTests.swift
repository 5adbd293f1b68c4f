import Testing

@testable import SagaRuntime

/// A task that never waits looks for a stop less often while its steps are fast, and soon
/// after each slow step once they are slow.
@Suite struct StopCheckPaceTests {
    private let millisecond: UInt64 = 1_000_000

    @Test func slowStepsBringTheLooksCloserTogetherDownToEveryStep() {
        var pace = StopCheckPace()
        var now: UInt64 = 1_000
        pace.look(at: now)
        #expect(pace.steps == StopCheckPace.most)
        var seen: [Int] = []
        for _ in 0..<10 {
            now += 50 * millisecond
            pace.look(at: now)
            seen.append(pace.steps)
        }
        #expect(Array(seen.prefix(3)) == [StopCheckPace.most / 4, StopCheckPace.most / 16, StopCheckPace.most / 64])
        #expect(seen.last == 1)
    }

    @Test func fastStepsSpreadTheLooksBackOut() {
        var pace = StopCheckPace()
        var now: UInt64 = 1_000
        pace.look(at: now)
        for _ in 0..<10 {
            now += 50 * millisecond
            pace.look(at: now)
        }
        #expect(pace.steps == 1)
        for _ in 0..<20 {
            now += 1_000
            pace.look(at: now)
        }
        #expect(pace.steps == StopCheckPace.most)
        // Between the two: as many as before.
        now += 5 * millisecond
        pace.look(at: now)
        #expect(pace.steps == StopCheckPace.most)
    }
}
