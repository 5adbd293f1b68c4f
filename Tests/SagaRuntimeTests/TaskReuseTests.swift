import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A new task runs in one that has finished, when nothing refers to that task any more
/// (`SpareTasks`, `SagaTask.restart`).
///
/// A restarted task must be what a new one would be, and no run may tell the difference.
@Suite struct TaskReuseTests {
    private static let nowhere = SourceLocation.unknown

    private func task(id: Int, parent: SagaTask?, env: [Value], body: Block) -> SagaTask {
        SagaTask(
            id: id, name: "fork block", location: Self.nowhere, kind: .attached, parent: parent, env: env,
            body: Self.code(body))
    }

    private static func code(_ body: Block) -> Code {
        Code(sagaBody: body.statements, slotCount: 1) ?? .none
    }

    @Test func aRestartedTaskIsAsNewAsOneJustMade() {
        let empty = Block(statements: [], location: Self.nowhere)
        let body = Block(statements: [.log(.literal(.int(1), Self.nowhere), Self.nowhere)], location: Self.nowhere)
        let watcher = task(id: 1, parent: nil, env: [], body: empty)
        let fresh = task(id: 7, parent: watcher, env: [.int(5)], body: body)
        let used = SagaTask(
            id: 3, name: "func f", location: SourceLocation(line: 4, column: 2), kind: .owned, parent: nil,
            env: [.int(9)], body: Self.code(empty))
        // Every field a run can change, away from where `init` leaves it.
        used.pc = 4
        used.frames = [.compensating(remaining: [], pending: .normal, running: -1)]
        used.token = 12
        used.callDepth = 2
        used.waitSequence = 5
        used.stepsCarried = 3
        used.failure = Failure(error: .typeError("no"), trace: [])
        used.owner = .caller(watcher)
        used.phase = .done
        used.traceOpen = true
        used.endedByEnd = true
        used.keepParentsOnceFinished()
        used.ownsVariables = true
        used.wait = .take
        used.runsForCancelledOwner = true
        used.isCancelling = true
        used.nextTurnIsQuiet = true
        used.target = .slot(2)
        used.resumption = .value(.int(1))
        used.outcome = .cancelled

        used.restart(
            id: 7, name: "fork block", location: Self.nowhere, kind: .attached, parent: watcher, env: [.int(5)],
            body: Self.code(body))

        let made = Mirror(reflecting: fresh).children
        let restarted = Mirror(reflecting: used).children
        // A field added to tasks must be set by `restart` too, and then listed here.
        #expect(
            made.map(\.label) == [
                "id", "parent", "env", "code", "storedPC", "storedCallDepth", "temporaries", "frames", "token",
                "waitSequence", "extras", "failure", "name", "owner", "location", "kind", "phase", "traceOpen",
                "endedByEnd", "wait",
                "runsForCancelledOwner", "isCancelling", "nextTurnIsQuiet", "keepsParent",
                "target", "ownsVariables",
                "resumption", "outcome",
            ])
        for (new, old) in zip(made, restarted) where new.label != "token" {
            #expect(String(describing: new.value) == String(describing: old.value), "\(new.label ?? "?")")
        }
        #expect(used.token == 12, "a token never goes back")
    }

    @Test func aKeptTaskIsTakenOnlyWhenNothingElseRefersToIt() {
        let empty = Block(statements: [], location: Self.nowhere)
        var spare = SpareTasks()
        var ended: SagaTask? = task(id: 2, parent: nil, env: [], body: empty)
        spare.keep(ended!)
        #expect(spare.take() == nil, "a handle or a queued wake-up still holds it")
        ended = nil
        #expect(spare.take()?.id == 2)
        #expect(spare.take() == nil, "taken once")
    }

    @Test func theLastTaskKeptThatNothingRefersToIsTakenFirst() {
        let empty = Block(statements: [], location: Self.nowhere)
        var spare = SpareTasks()
        let held = task(id: 1, parent: nil, env: [], body: empty)
        spare.keep(held)
        spare.keep(task(id: 2, parent: nil, env: [], body: empty))
        spare.keep(task(id: 3, parent: nil, env: [], body: empty))
        #expect(spare.take()?.id == 3)
        #expect(spare.take()?.id == 2)
        #expect(spare.take() == nil, "task 1 is still held")
    }

    @Test func tasksStillReferredToMakeRoomForOthers() {
        let empty = Block(statements: [], location: Self.nowhere)
        var spare = SpareTasks()
        let held = (1...SpareTasks.capacity).map { task(id: $0, parent: nil, env: [], body: empty) }
        for t in held { spare.keep(t) }
        spare.keep(task(id: 99, parent: nil, env: [], body: empty))
        #expect(spare.take() == nil, "all are held, and a full store keeps no more")
        spare.keep(task(id: 100, parent: nil, env: [], body: empty))
        #expect(spare.take()?.id == 100, "the one kept longest made room")
    }

    @Test func bodiesThatEndAtOnceWaitForkOrFailRunAsInNewTasks() async {
        // Some bodies end at once (their task is kept), some wait past the next action (the kept
        // one is busy), some leave a child running (kept only when it ends), some show the
        // handles of the tasks they fork (whose numbers must not change), one fails and stops
        // the saga with a body still waiting.
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                if a.n % 3 == 0 { take "b" }
                if a.n % 4 == 0 { fork { delay 5; log "late child of \\(a.n)" } }
                let t = fork { log "child of \\(a.n)" }
                log "body \\(a.n) forked \\(t)"
                if a.n == 9 { throw "nine" }
              }
            }
            """,
            input: (1...10).map { #"{"type":"\#($0 % 5 == 0 ? "b" : "a")","n":\#($0)}"# })
        // Bodies 1–4 and 6–9 ran (5 and 10 are "b"); the ninth failed the saga.
        #expect(outcome.lines.filter { $0.hasPrefix("body ") }.count == 8)
        #expect(outcome.errors.contains { $0.contains("nine") })
    }

    @Test func latestAndLeadingBodiesRunAsInNewTasks() async {
        // `latest` and `leading` hold their last body's handle in a hidden variable, let go of
        // when the next body starts. Bodies that end at once alternate with ones that wait;
        // the one for `a` 3 is still waiting when 4 comes (`latest` cancels it, `leading` drops
        // 4), the others are let go first.
        var input: [String] = []
        for n in 1...9 {
            input.append(#"{"type":"a","n":\#(n)}"#)
            if n == 4 || n % 3 == 0 && n > 3 { input.append(#"{"type":"go"}"#) }
        }
        for (watcher, missing) in [("latest", 3), ("leading", 4)] {
            let outcome = await runWithAndWithoutShortCuts(
                """
                saga main {
                  \(watcher) "a" as a {
                    if a.n % 3 == 0 { take "go" }
                    let t = fork { log "child of \\(a.n)" }
                    log "body \\(a.n) forked \\(t)"
                  }
                }
                """, input: input)
            let bodies = outcome.lines.filter { $0.hasPrefix("body ") }.map { $0.split(separator: " ")[1] }
            #expect(bodies == (1...9).filter { $0 != missing }.map { "\($0)"[...] }, "\(watcher)")
            #expect(outcome.errors.isEmpty)
        }
    }

    @Test func finishedTasksRunNewOnesOnlyWhenNothingCanTellThemApart() async {
        // Forks, calls and `all` entries that end at once hand their tasks on; a handle kept
        // (`held`, `slow`) keeps its task, whose number, value and join stay its own.
        let outcome = await runSaga(
            """
            func twice(n) { delay 1; return n * 2 }
            saga main {
              let slow = fork { delay 50; return "slow" }
              let held = fork { return "held" }
              for i in range(4) {
                let t = fork { return i }
                let r = all [call twice(i), call twice(i + 10)]
                let v = join t
                log "\\(v) \\(r[0]) \\(r[1]) \\(t)"
              }
              let h = join held
              log "\\(h) \\(held)"
              let s = join slow
              log "\\(s) \\(slow)"
            }
            """)
        #expect(outcome.errors.isEmpty)
        #expect(
            outcome.lines == [
                #"0 0 20 "<task 4>""#, #"1 2 22 "<task 7>""#, #"2 4 24 "<task 10>""#, #"3 6 26 "<task 13>""#,
                #"held "<task 3>""#, #"slow "<task 2>""#,
            ])
    }
}
