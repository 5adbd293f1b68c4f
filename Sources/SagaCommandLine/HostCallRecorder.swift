import SagaCore
import SagaRuntime
import Synchronization

/// `sagarun run --record FILE`: every host function call and what it gave, as lines of a
/// mocks file (`--mocks`), in the order the calls were made.
final class HostCallRecorder: Sendable {
    /// The lines, by call number; `nil` for a call still in flight (or cancelled).
    private let lines = Mutex<[Value?]>([])

    /// `host` with each function wrapped so that its calls are recorded.
    func recording(_ host: HostFunctions) -> HostFunctions {
        var wrapped = HostFunctions()
        for name in host.names {
            guard let function = host[name] else { continue }
            wrapped.register(name) { [self] args in
                let index = lines.withLock { lines -> Int in
                    lines.append(nil)
                    return lines.count - 1
                }
                do {
                    let result = try await function(args)
                    record(index, ["call": .string(name), "args": .list(args), "result": result])
                    return result
                } catch let error as SagaError {
                    record(index, ["call": .string(name), "args": .list(args), "error": error.value])
                    throw error
                } catch {
                    let value = SagaError(kind: "HostError", message: String(describing: error)).value
                    record(index, ["call": .string(name), "args": .list(args), "error": value])
                    throw error
                }
            }
        }
        return wrapped
    }

    private func record(_ index: Int, _ line: Value) {
        lines.withLock { $0[index] = line }
    }

    /// The mocks file: one JSON record a finished call, in call order.
    func jsonl() -> String {
        lines.withLock { $0.compactMap { $0.map { $0.canonicalJSON + "\n" } }.joined() }
    }
}
