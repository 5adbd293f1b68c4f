import SagaCore
import SagaRuntime
import SagaTestSupport
import Synchronization
import Testing

/// Host functions: async Swift closures that sagas `call` by name.
@Suite struct HostFunctionTests {
    @Test func aSagaCallsAHostFunctionAndGetsItsResult() async {
        var host = HostFunctions()
        host.register("api.fetchUser") { args in
            ["id": args.first ?? .null, "name": "Ada"]
        }
        let run = await runSaga(
            """
            saga main {
              let user = call api.fetchUser(7)
              log user.name
              log user.id
            }
            """, host: host)
        #expect(run.lines == ["Ada", "7"])
        #expect(run.status == .success)
    }

    @Test func aHostErrorIsThrownIntoTheSagaAsAHostError() async {
        struct Offline: Error {}
        var host = HostFunctions()
        host.register("net.get") { _ in throw Offline() }
        let run = await runSaga(
            """
            saga main {
              try { call net.get("x") } catch e { log e.kind }
            }
            """, host: host)
        #expect(run.lines == ["HostError"])
    }

    @Test func underVirtualTimeCompletionsArriveInCallOrderEvenWhenTheSecondFinishesFirst() async {
        // `slow` cannot finish before `fast` has run: it waits for a gate that `fast` opens.
        let gate = OpenableGate()
        var host = HostFunctions()
        host.register("slow") { _ in
            await gate.wait()
            return "slow"
        }
        host.register("fast") { _ in
            gate.open()
            return "fast"
        }
        let run = await runSaga(
            """
            saga main {
              fork { let a = call slow(); log a }
              fork { let b = call fast(); log b }
            }
            """, host: host)
        #expect(run.lines == ["slow", "fast"])
    }

    @Test func aCancelledCallIsAbandoned() async {
        let gate = OpenableGate()
        var host = HostFunctions()
        host.register("never") { _ in
            await gate.wait()
            return "too late"
        }
        let run = await runSaga(
            """
            saga main {
              let t = fork { try { let v = call never(); log v } finally { log "cancelled: \\(cancelled)" } }
              cancel t
              log "done"
            }
            """, host: host)
        gate.open()
        #expect(run.lines == ["cancelled: true", "done"])
    }

    @Test func anUnknownHostFunctionIsACheckError() async {
        let run = await runSaga("saga main { call nothing.here() }")
        #expect(run.status == nil)
        #expect(run.errors.first?.contains("unknown function 'nothing.here'") == true)
    }
}
