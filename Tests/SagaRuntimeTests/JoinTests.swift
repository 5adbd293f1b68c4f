import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `join t` waits on its one task without the state `join [t1, t2]` keeps (see the
/// interpreter's `joinOne`).
///
/// It must give what the list form gives for a list of one, whatever state the task is in when
/// it is joined and how it ends: each program here runs once with `join t` and once with `join
/// [t]` (its only result taken out), and both runs must print, fail and end alike. Where a
/// program's lines are given too, they are those of the list form, since both forms share what
/// a failed or cancelled task does to its joiner.
@Suite struct JoinTests {
    /// The two variants of `template`: `JOIN(x)` stands for a join of the task `x` whose
    /// result goes into `r`.
    private func variants(_ template: String) -> (one: String, list: String) {
        func replacing(_ form: (String) -> String) -> String {
            var text = template
            while let open = text.range(of: "JOIN(") {
                guard let close = text[open.upperBound...].firstIndex(of: ")") else { break }
                let name = String(text[open.upperBound..<close])
                text.replaceSubrange(open.lowerBound...close, with: form(name))
            }
            return text
        }
        return (replacing { "let r = join \($0)" }, replacing { "let rs = join [\($0)]; let r = rs[0]" })
    }

    /// Runs both variants; returns the `join t` run's lines after checking they agree.
    @discardableResult
    private func expectSameRun(_ template: String) async -> [String] {
        let (one, list) = variants(template)
        let a = await runSaga(one)
        let b = await runSaga(list)
        #expect(a.status != nil)
        #expect(a.lines == b.lines)
        #expect(a.errors == b.errors)
        #expect(a.status == b.status)
        return a.lines
    }

    @Test func aTaskThatIsRunningGivesItsResultWhenItEnds() async {
        let lines = await expectSameRun(
            """
            func work(ms) { delay ms; return ms * 2 }
            saga main {
              let t = fork work(10)
              JOIN(t)
              log "got \\(r) at \\(now())"
            }
            """)
        #expect(lines == ["got 20 at 10"])
    }

    /// The first task to join is kept apart from the others (no list for the usual one
    /// joiner): all are still woken in the order they joined.
    @Test func theTasksJoiningOneTaskAreWokenInTheOrderTheyJoined() async {
        let lines = await expectSameRun(
            """
            func work() { delay 10; return 7 }
            saga main {
              let t = fork work()
              fork { JOIN(t); log "first \\(r)" }
              fork { JOIN(t); log "second \\(r)" }
              fork { JOIN(t); log "third \\(r)" }
            }
            """)
        #expect(lines == ["first 7", "second 7", "third 7"])
    }

    @Test func aTaskThatHasEndedGivesItsResultAtOnce() async {
        let lines = await expectSameRun(
            """
            func work() { return "done" }
            saga main {
              let t = fork work()
              delay 5
              JOIN(t)
              log "got \\(r) at \\(now())"
            }
            """)
        #expect(lines == ["got done at 5"])
    }

    @Test func aFailedTaskFailsTheJoinWhetherItFailsBeforeOrAfter() async {
        await expectSameRun(
            """
            func fails(ms) { delay ms; throw "broke after \\(ms)" }
            saga early {
              let t = spawn fails(1)
              delay 5
              try { JOIN(t) } catch e { log "early caught \\(e.message)" }
            }
            saga late {
              let t = spawn fails(10)
              try { JOIN(t) } catch e { log "late caught \\(e.message) at \\(now())" }
            }
            """)
    }

    @Test func aCancelledTaskCancelsTheJoinerWhetherItIsCancelledBeforeOrAfter() async {
        let lines = await expectSameRun(
            """
            func sleeper() { delay 100; return 1 }
            saga before {
              let t = spawn sleeper()
              cancel t
              try { JOIN(t); log "before: not reached" } finally { log "before cancelled: \\(cancelled)" }
            }
            saga after {
              let t = spawn sleeper()
              fork { delay 5; cancel t }
              try { JOIN(t); log "after: not reached" } finally { log "after cancelled: \\(cancelled) at \\(now())" }
            }
            """)
        #expect(lines.contains("before cancelled: true"))
        #expect(lines.contains("after cancelled: true at 5"))
    }

    @Test func aJoinerThatIsCancelledStopsWaitingAndTheTaskGoesOn() async {
        let lines = await expectSameRun(
            """
            func work() { delay 20; log "work ended at \\(now())"; return 1 }
            saga main {
              let t = spawn work()
              let waiter = fork {
                try { JOIN(t); log "not reached" } finally { log "waiter cancelled: \\(cancelled)" }
              }
              delay 5
              cancel waiter
            }
            """)
        #expect(lines == ["waiter cancelled: true", "work ended at 20"])
    }

    @Test func aTaskBeingCancelledCancelsItsJoinerWhenItsFinallyEnds() async {
        let lines = await expectSameRun(
            """
            func slow() {
              try { delay 100; return 1 } finally {
                if cancelled { log "slow cancelled at \\(now())"; delay 5; log "slow finally done at \\(now())" }
              }
            }
            saga main {
              let t = spawn slow()
              fork { delay 2; cancel t }
              delay 3
              try { JOIN(t); log "not reached \\(r)" } finally { log "joiner cancelled: \\(cancelled) at \\(now())" }
            }
            """)
        #expect(lines == ["slow cancelled at 2", "slow finally done at 7", "joiner cancelled: true at 7"])
    }

    @Test func aTaskWhoseBodyHasEndedIsJoinedWhenItsChildrenEnd() async {
        let lines = await expectSameRun(
            """
            func parent() { fork { delay 10; log "grandchild done at \\(now())" }; log "parent ends at \\(now())"; return "p" }
            saga main {
              let t = spawn parent()
              delay 1
              JOIN(t)
              log "joined \\(r) at \\(now())"
            }
            """)
        #expect(lines == ["parent ends at 0", "grandchild done at 10", "joined p at 10"])
    }
}
