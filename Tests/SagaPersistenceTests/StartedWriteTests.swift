import SagaCore
import Synchronization
import Testing

@testable import SagaPersistence

/// Writes started without awaiting (`save(entity:element:completion:)`, what the persistence
/// middleware uses): each is acknowledged once, they reach the store in the order they were
/// started, and a write the store cannot take fails at once.
@Suite("Writes started without awaiting")
struct StartedWriteTests {
    @Test(arguments: StoreKind.allCases)
    func writesStartedOneAfterAnotherLandInThatOrder(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let writes = 300
        let acknowledged = Acknowledgements(expected: writes)
        // Three elements, saved again and again and deleted in between: only the last write
        // of each may count, whatever the batches (the very last one deletes id 2).
        for i in 0..<writes {
            if i % 10 == 9 {
                store.delete(entity: "items", id: .int(i % 3)) { acknowledged.add($0.map { _ in .null }) }
            } else {
                store.save(entity: "items", element: ["id": .int(i % 3), "v": .int(i)]) { acknowledged.add($0) }
            }
        }
        let results = await acknowledged.all()
        #expect(results.count == writes)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(try await all(store) == [["id": 0, "v": 297], ["id": 1, "v": 298]])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func anElementWithoutAnIdFailsAtOnce(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let result = Mutex<Result<Value, StoreError>?>(nil)
        store.save(entity: "items", element: ["name": "no id"]) { r in result.withLock { $0 = r } }
        let failure = result.withLock { r -> StoreError.Code? in
            guard case .failure(let error)? = r else { return nil }
            return error.code
        }
        #expect(failure == .invalidElement)
        #expect(try await all(store) == [])
        await store.close()
    }

    @Test func aClosedFileStoreRefusesAStartedWrite() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path)
            await store.close()
            let acknowledged = Acknowledgements(expected: 1)
            store.save(entity: "items", element: ["id": 1]) { acknowledged.add($0) }
            let results = await acknowledged.all()
            guard case .failure(let error)? = results.first else {
                Issue.record("the write was not refused: \(results)")
                return
            }
            #expect(error.code == .closed)
        }
    }
}

/// Collects completions from any thread; ``all()`` returns once `expected` have come.
private final class Acknowledgements: Sendable {
    typealias Results = [Result<Value, StoreError>]

    private struct State {
        var results: Results = []
        var waiter: CheckedContinuation<Results, Never>?
    }

    private let expected: Int
    private let state = Mutex(State())

    init(expected: Int) { self.expected = expected }

    func add(_ result: Result<Value, StoreError>) {
        let done = state.withLock { s -> (CheckedContinuation<Results, Never>, Results)? in
            s.results.append(result)
            guard s.results.count == expected, let w = s.waiter else { return nil }
            s.waiter = nil
            return (w, s.results)
        }
        done.map { $0.0.resume(returning: $0.1) }
    }

    func all() async -> Results {
        await withCheckedContinuation { c in
            let ready = state.withLock { s -> Results? in
                if s.results.count >= expected { return s.results }
                s.waiter = c
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }
}
