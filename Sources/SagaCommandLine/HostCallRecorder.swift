import SagaCore
import SagaRuntime
import Synchronization

/// `sagarun run --record FILE`: every host function call and what it gave, as lines of a
/// mocks file (`--mocks`), in the order the calls were made.
///
/// A call that was cancelled before it answered (a `race` its timeout won), or had not
/// answered when the run ended, is written as `"pending": true`, which replays as a call that
/// never answers.
final class HostCallRecorder: Sendable {
    /// Each call's line so far (`call` and `args`), and what it gave once it has.
    private let calls = Mutex<[(call: Record, outcome: (key: String, value: Value)?)]>([])

    /// `host` with each function wrapped so that its calls are recorded.
    func recording(_ host: HostFunctions) -> HostFunctions {
        var wrapped = HostFunctions()
        for name in host.names {
            guard let function = host[name] else { continue }
            wrapped.register(name) { [self] args in
                let index = calls.withLock { calls -> Int in
                    calls.append((["call": .string(name), "args": .list(args)], nil))
                    return calls.count - 1
                }
                do {
                    let result = try await function(args)
                    if !Task.isCancelled {
                        if case .handle(let h) = result, let channel = h.object as? EventChannel {
                            record(index, "channel", .string(channel.name))
                        } else {
                            record(index, "result", result)
                        }
                    }
                    return result
                } catch {
                    if !Task.isCancelled {
                        let failure =
                            error as? SagaError ?? SagaError(kind: "HostError", message: String(describing: error))
                        record(index, "error", failure.value)
                    }
                    throw error
                }
            }
        }
        return wrapped
    }

    private func record(_ index: Int, _ key: String, _ value: Value) {
        calls.withLock { $0[index].outcome = (key, value) }
    }

    /// The mocks file: one JSON record a call, in call order.
    func jsonl() -> String {
        calls.withLock { calls in
            calls.map { entry in
                var line = entry.call
                if let outcome = entry.outcome {
                    line[outcome.key] = outcome.value
                } else {
                    line["pending"] = true
                }
                return Value.record(line).canonicalJSON + "\n"
            }.joined()
        }
    }
}
