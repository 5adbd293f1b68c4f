import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Takes and delays whose tasks stopped waiting (cancelled, or a `race`'s lost entries) leave
/// entries behind; a run that makes and cancels them while no action comes and no timer is due
/// must not hold them all.
@Suite struct StaleWaitSweepTests {
    private static let nowhere = SourceLocation.unknown

    private func task(_ id: Int) -> SagaTask {
        SagaTask(
            id: id, name: "t", location: Self.nowhere, kind: .attached, parent: nil, env: [],
            body: .none)
    }

    @Test func takersThatStoppedWaitingAreSweptOnceTheListDoubles() {
        var index = TakerIndex()
        var live: [SagaTask] = []
        for i in 0..<10_000 {
            let waiting = task(i)
            waiting.wait = .take
            index.add(Taker(waiting, pattern: .exact("never")))
            // Every tenth task goes on waiting; the others stop at once, as cancelled ones do.
            if i % 10 == 0 { live.append(waiting) } else { waiting.wait = .none }
        }
        #expect(index.plain.count <= 2 * max(1024, live.count) + 1)
        // The live ones are all there, in the order they began to wait.
        let kept = index.plain.filter(\.isLive).map(\.task)
        #expect(kept.map(\.id) == live.map(\.id))
    }

    @Test func timersNoTaskWaitsForAreSweptOnceTheQueueDoubles() {
        var timers = TimerQueue()
        var live: [(task: SagaTask, due: Int)] = []
        for i in 0..<10_000 {
            let waiting = task(i)
            let due = (i * 7_919) % 10_000
            waiting.wait = .timer(timers.add(due: due, task: waiting, token: waiting.token))
            if i % 10 == 0 { live.append((waiting, due)) } else { waiting.wait = .none }
        }
        #expect(timers.count <= 2 * max(1024, live.count) + 1)
        // The live ones still fire in order of their due times.
        var fired: [Int] = []
        while let timer = timers.pop() {
            if timer.isLive { fired.append(timer.task.id) }
        }
        let expected = live.sorted { ($0.due, $0.task.id) < ($1.due, $1.task.id) }.map(\.task.id)
        #expect(fired == expected)
    }

    @Test func aSagaCancellingTakesAndDelaysWithNoActionRunsToTheEnd() async {
        let run = await runSaga(
            """
            saga main {
              for i in range(20000) {
                let r = race { a: take "never", b: delay 0 }
                let t = fork { delay 1000000 }
                cancel t
              }
              log "done"
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["done"])
    }
}
