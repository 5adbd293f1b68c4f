import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// An interpreter's own store whose only middleware is the saga middleware processes the
/// interpreter's actions without its middleware chain (`Store.dispatch(_:before:after:)`).
///
/// So does one whose other middleware all say what they act on (`Middleware(actingOn:)`), for
/// the actions none of them acts on.
///
/// Whatever the sagas, the reducers, a subscriber or the transcript see must be what they see
/// when another middleware keeps the chain in use.
@Suite struct OwnStoreDispatchTests {
    /// Reducers, takers with and without conditions, an action channel, puts
    /// that wake takers and puts that wake none, a watcher, and the action lines.
    static let program = """
        state { count: 0, seen: 0 }
        reduce "add" as a { state.count = state.count + a.by }
        reduce * as a { state.seen = state.seen + 1 }
        saga main {
          let jobs = actionChannel "job"
          fork {
            loop {
              let j = take jobs
              let c = select state.count
              log "job \\(j.id), count \\(c)"
              put "add" { by: j.id }
            }
          }
          every "ping" as p { put "pong" }
          let big = take "add" where it.by > 2
          let n = select state.count
          log "big add \\(big.by), count \\(n)"
          put "done"
        }
        """

    static let input = [
        #"{"type":"job","id":1}"#, #"{"type":"ping"}"#, #"{"type":"add","by":1}"#,
        #"{"type":"job","id":2}"#, #"{"type":"ping"}"#, #"{"type":"add","by":5}"#,
    ]

    /// Runs the program with `middleware`, a subscriber counting the states it is shown.
    private func run(middleware: [Middleware<Value, Value>]) async throws -> (ConfiguredRun, Int) {
        let program = try #require(Frontend().compile(source: Self.program, path: "own.saga").program)
        let output = BufferedOutput()
        let interpreter = Interpreter(
            program: program, options: .init(virtualTime: true, printActions: true), middleware: middleware,
            output: output)
        var notified = 0
        let store = try #require(interpreter.store)
        // Once, mid-run, an app's own dispatch from a subscriber: queued behind the action
        // being processed, it goes through the chain on either way.
        store.subscribe { [unowned store] state in
            notified += 1
            if notified == 4 { store.dispatch(["type": "job", "id": 7]) }
        }
        let status = await interpreter.run(input: InputSource(lines: Self.input))
        let run = ConfiguredRun(lines: output.lines, errors: output.errors, status: status, state: interpreter.state)
        return (run, notified)
    }

    @Test func middlewareSayingWhatItActsOnSeesThoseActionsOnly() async throws {
        // Records what reaches it, which a middleware that says what it acts on may not
        // count on: only to show which actions skipped the chain.
        let seen = SeenTypes()
        let isJob: (Value) -> Bool = { $0["type"] == "job" }
        let jobsOnly = Middleware<Value, Value>(actingOn: isJob) { _, next in
            { action in
                seen.types.append(action["type"].canonicalJSON)
                next(action)
            }
        }
        let (direct, _) = try await run(middleware: [])
        let (skipping, _) = try await run(middleware: [jobsOnly])
        #expect(skipping == direct)
        #expect(seen.types == [#""job""#, #""job""#, #""job""#], "the two input jobs and the subscriber's")

        // One middleware that does not say keeps every action in the chain.
        seen.types = []
        let passOn = Middleware<Value, Value> { _, next in { action in next(action) } }
        let (chained, _) = try await run(middleware: [jobsOnly, passOn])
        #expect(chained == direct)
        #expect(seen.types.count == direct.lines.filter { $0.hasPrefix("action ") }.count)
    }

    @Test func seesWhatTheChainShows() async throws {
        let passOn = Middleware<Value, Value> { _, next in { action in next(action) } }
        let (direct, directNotified) = try await run(middleware: [])
        let (chained, chainedNotified) = try await run(middleware: [passOn])

        #expect(direct == chained)
        #expect(directNotified == chainedNotified)
        #expect(direct.errors.isEmpty)
        let actions = direct.lines.filter { $0.hasPrefix("action ") }
        #expect(directNotified == actions.count)
        #expect(direct.lines.contains("big add 7, count 8"))
        #expect(direct.lines.contains("job 7, count 1"))
        #expect(direct.state["seen"] == .int(actions.count))
    }
}

/// The action types a middleware was shown, in order.
private final class SeenTypes {
    var types: [String] = []
}
