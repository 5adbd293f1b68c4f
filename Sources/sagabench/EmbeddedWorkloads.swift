import Foundation
import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore

/// The executor of the embedded workloads: the app's store and the interpreter run on one
/// actor, as an app's main actor would hold them.
@globalActor actor BenchActor {
    static let shared = BenchActor()
}

/// An app store of plain values: the bridge passes actions and state through.
struct ValueBridge: SagaBridge {
    func value(of action: Value) -> Value? { action }
    func action(from value: Value) throws(SagaError) -> Value { value }
    func value(of state: Value) -> Value { state }
}

/// Workloads that drive sagas from Swift, through the embedding API, as redux-saga's own
/// figures do from JavaScript: no input lines to read and parse.
enum EmbeddedWorkloads {
    static let takePut = Workload(
        name: "take-put-embedded",
        summary: "loop { take; put }, actions dispatched from Swift to an app's store (no input lines)",
        defaultCount: 1_000_000
    ) { n in
        try measure(count: n) { program, n in await dispatchFromSwift(program, count: n) }
    }

    /// Starts the sagas over an app store, dispatches `count` pings from Swift and returns the
    /// seconds the dispatches took (each returns once the sagas it woke have run).
    @BenchActor
    static func dispatchFromSwift(_ program: Program, count: Int) async -> Result<Double, BenchError> {
        let sagas = SagaMiddleware(bridge: ValueBridge())
        var pongs = 0
        let store = Store<Value, Value>(
            initialState: .record(Record()),
            reducer: { _, action in
                if case .record(let r) = action, r["type"] == .string("pong") { pongs &+= 1 }
            },
            middleware: [sagas.middleware])
        let interpreter = sagas.interpreter(for: program, store: store, output: NullOutput())
        let running = Task { @BenchActor in await interpreter.run() }
        while !interpreter.isRunning { await Task.yield() }
        let ping: Value = .record(Record([("type", .string("ping"))]))
        let seconds = time { for _ in 0..<count { store.dispatch(ping) } }
        interpreter.stop()
        _ = await running.value
        guard pongs == count else { return .failure(.failed("\(pongs) pongs for \(count) pings")) }
        return .success(seconds)
    }

    static let scriptedAndNative = Workload(
        name: "dispatch-embedded-native",
        summary: "actions dispatched from Swift to an app's store with a scripted and a native saga taking each",
        defaultCount: 200_000
    ) { n in
        try measure(count: n) { program, n in await dispatchToBoth(program, count: n) }
    }

    /// Compiles the embedded workloads' saga, `loop { take "ping"; put "pong" }`, and runs
    /// `body` with it on the bench actor, blocking until it is done.
    private static func measure(
        count n: Int, _ body: @escaping @BenchActor (Program, Int) async -> Result<Double, BenchError>
    ) throws -> Measurement {
        let source = """
            saga main {
              loop { let a = take "ping"; put "pong" }
            }
            """
        let compiled = Frontend().compile(source: source, path: "bench.saga")
        guard let program = compiled.program else { throw BenchError.compile(compiled.renderedDiagnostics) }
        let box = UncheckedBox(program)
        var result: Result<Double, BenchError> = .failure(.failed("did not run"))
        _ = blockingTime { result = await body(box.value, n) }
        return Measurement(count: n, seconds: try result.get(), unit: "actions")
    }

    /// Starts a scripted and a native saga over an app store, dispatches `count` pings from
    /// Swift and returns the seconds until both sagas have taken every one (the native saga's
    /// steps run on a task of its own, so the dispatches do not wait for them).
    @BenchActor
    static func dispatchToBoth(_ program: Program, count: Int) async -> Result<Double, BenchError> {
        let sagas = SagaMiddleware(bridge: ValueBridge())
        var pongs = 0
        var seen = 0
        let store = Store<Value, Value>(
            initialState: .record(Record()),
            reducer: { _, action in
                guard case .record(let r) = action else { return }
                if r["type"] == .string("pong") { pongs &+= 1 }
                if r["type"] == .string("seen") { seen &+= 1 }
            },
            middleware: [sagas.middleware])
        let interpreter = sagas.interpreter(for: program, store: store, output: NullOutput())
        interpreter.addSaga("native") { saga in
            while true {
                try await saga.take("ping")
                try await saga.put("seen")
            }
        }
        let running = interpreter.start()
        let ping: Value = .record(Record([("type", .string("ping"))]))
        let start = ContinuousClock.now
        for _ in 0..<count { store.dispatch(ping) }
        for await _ in store.states() where pongs == count && seen == count { break }
        let elapsed = ContinuousClock.now - start
        interpreter.stop()
        _ = await running.value
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return .success(seconds)
    }
}
