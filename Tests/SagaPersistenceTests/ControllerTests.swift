import Foundation
import SagaCore
import SagaPersistence
import SagaStore
import Synchronization
import Testing

/// The typed persistence API, as an app uses it: a `Persistable` type, a controller over a
/// container, the controller's middleware and reducer in a store.
@Suite struct ControllerTests {
    struct Song: Persistable, Equatable {
        static let entityName = "songs"
        var id: String
        var title: String
        var year: Int
    }

    typealias Songs = FileStoreController<Song>

    /// Collects scheduled work and runs it when the test says, in order: results reach the
    /// store on the test's own thread, deterministically.
    final class ManualScheduler: AsyncWorkScheduler, Sendable {
        let pending = Mutex<[@Sendable () async -> [Songs.Action]]>([])
        func schedule(_ work: @escaping @Sendable () async -> [Songs.Action]) {
            pending.withLock { $0.append(work) }
        }
        /// Runs the pending work (and work it causes) until none is left; returns the results.
        func drain(into store: Store<Songs.State, Songs.Action>) async {
            while let next = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                for action in await next() { store.dispatch(action) }
            }
        }
        /// Waits for the live request's task to schedule its next result.
        func waitForWork() async {
            for _ in 0..<1000 where pending.withLock({ $0.isEmpty }) { await Task.yield() }
        }
    }

    func makeStore(_ container: FileStoreContainer) -> (Store<Songs.State, Songs.Action>, ManualScheduler) {
        let scheduler = ManualScheduler()
        let songs = Songs(container)
        let store = Store(
            initialState: Songs.State(), reducer: Songs.makeReducer(),
            middleware: [songs.makeMiddleware(scheduler: scheduler)])
        return (store, scheduler)
    }

    let blue = Song(id: "1", title: "Blue in Green", year: 1959)
    let giant = Song(id: "2", title: "Giant Steps", year: 1960)

    @Test func savingGoesThroughProcessingToSucceeded() async {
        let (store, scheduler) = makeStore(.inMemory())
        store.dispatch(.save(blue))
        #expect(store.state.persist == .processing)
        await scheduler.drain(into: store)
        #expect(store.state.persist == .succeeded)
    }

    @Test func aRequestReceivesTheElementsInOrder() async {
        let (store, scheduler) = makeStore(.inMemory())
        store.dispatch(.save(blue))
        store.dispatch(.save(giant))
        await scheduler.drain(into: store)
        store.dispatch(.request(StoreRequest(orderBy: ["-year"])))
        #expect(store.state.request == .loading)
        await scheduler.waitForWork()
        await scheduler.drain(into: store)
        #expect(store.state.request == .received([giant, blue]))
    }

    /// A request dispatched right after saves, before their results, reads them: the file
    /// store answers once the writes before it are on stable storage.
    @Test func aRequestDispatchedRightAfterSavesReadsThem() async throws {
        try await withTemporaryFolder { folder in
            let container = FileStoreContainer(directory: folder.path)
            let (store, scheduler) = makeStore(container)
            store.dispatch(.save(blue))
            store.dispatch(.save(giant))
            store.dispatch(.request(StoreRequest(orderBy: ["-year"])))
            for _ in 0..<1000 where store.state.request == .loading {
                await scheduler.waitForWork()
                await scheduler.drain(into: store)
            }
            #expect(store.state.request == .received([giant, blue]))
            await container.close()
        }
    }

    @Test func aLiveRequestReceivesAgainAfterEachChangeUntilCancelled() async {
        let (store, scheduler) = makeStore(.inMemory())
        store.dispatch(.request(StoreRequest(where: ["year": .lessThan(1960)], live: true)))
        await scheduler.waitForWork()
        await scheduler.drain(into: store)
        #expect(store.state.request == .received([]))
        store.dispatch(.save(blue))
        await scheduler.drain(into: store)
        await scheduler.waitForWork()
        await scheduler.drain(into: store)
        #expect(store.state.request == .received([blue]))
        store.dispatch(.cancelRequest)
        await scheduler.drain(into: store)
        #expect(store.state.request == .canceled)
        store.dispatch(.delete(blue))
        await scheduler.drain(into: store)
        #expect(store.state.delete == .succeeded)
        await scheduler.waitForWork()
        #expect(store.state.request == .canceled)
    }

    /// A live request's stream ends when its container closes, so that code reading it to
    /// its end does not wait for ever.
    @Test(.timeLimit(.minutes(5))) func aLiveRequestsStreamEndsWhenTheContainerCloses() async {
        let container = FileStoreContainer.inMemory()
        let songs = Songs(container)
        let (received, receivedContinuation) = AsyncStream<Void>.makeStream()
        let reader = Task {
            var results = 0
            for await _ in songs.request(StoreRequest(live: true)) {
                results += 1
                receivedContinuation.yield()
            }
            return results
        }
        var first = received.makeAsyncIterator()
        _ = await first.next()
        await container.close()
        #expect(await reader.value == 1)
    }

    @Test func aFailedRequestSaysWhy() async {
        let (store, scheduler) = makeStore(.inMemory())
        let bad = StoreRequest<Song>(where: ["year": .isIn([])], orderBy: [""])
        store.dispatch(.request(bad))
        await scheduler.waitForWork()
        await scheduler.drain(into: store)
        guard case .failed(let error, _) = store.state.request else {
            Issue.record("expected a failed request, got \(store.state.request)")
            return
        }
        #expect(error.code == .invalidQuery)
    }

    @Test func theContainerSharesOneFolderAndItsDataOutlivesIt() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let container = FileStoreContainer(directory: dir)
        guard case .loaded = await container.load() else {
            Issue.record("the container did not load")
            return
        }
        let second = FileStoreContainer(directory: dir)
        guard case .failed(let error) = await second.load() else {
            Issue.record("a second container on the same folder should fail")
            return
        }
        #expect(error.code == .locked)
        _ = try await Songs(container).save(blue)
        await container.close()

        let reopened = FileStoreContainer(directory: dir)
        var found: [Song] = []
        for await result in Songs(reopened).request(StoreRequest()) { found = (try? result.get()) ?? [] }
        #expect(found == [blue])
        await reopened.close()
    }
}
