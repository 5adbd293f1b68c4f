import Foundation
import SagaPersistence
import SagaStore
import Synchronization
import Testing

/// A controller's writes reach the storage in dispatch order, so the last save of an element
/// is the one kept; results come back into the store the middleware is installed in.
@MainActor @Suite struct ControllerOrderTests {
    struct Song: Persistable, Equatable {
        static let entityName = "songs"
        var id: String
        var title: String
    }

    typealias Songs = FileStoreController<Song>

    /// The controller's state, and every result the store received, in order.
    struct AppState {
        var songs = Songs.State()
        var results: [Songs.Action] = []
    }

    static func reduce(_ state: inout AppState, _ action: Songs.Action) {
        state.songs.reduce(action)
        switch action {
        case .saved, .saveFailed, .deleted, .deleteFailed: state.results.append(action)
        default: break
        }
    }

    /// Waits (without sleeping) until the store's state satisfies `condition`.
    func waitFor(_ store: Store<AppState, Songs.Action>, _ condition: (AppState) -> Bool) async {
        for await state in store.states() where condition(state) { return }
    }

    /// 200 pairs of saves of one id, dispatched while the store is still opening and after:
    /// reopened, the file store holds the last.
    @Test(.timeLimit(.minutes(5))) func twoHundredPairsOfSavesOfOneIdLeaveTheLast() async {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let container = FileStoreContainer(directory: dir)
        let store = Store(
            initialState: AppState(), reducer: Self.reduce, middleware: [Songs(container).makeMiddleware()])
        for i in 0..<200 {
            store.dispatch(.save(Song(id: "1", title: "v\(i)a")))
            store.dispatch(.save(Song(id: "1", title: "v\(i)b")))
            if i % 10 == 0 { await Task.yield() }
        }
        await waitFor(store) { $0.results.count == 400 }
        let titles = store.state.results.compactMap { result -> String? in
            if case .saved(let song) = result { song.title } else { nil }
        }
        #expect(titles == (0..<200).flatMap { ["v\($0)a", "v\($0)b"] })
        #expect(store.state.songs.persist == .succeeded)
        await container.close()

        let reopened = FileStoreContainer(directory: dir)
        var found: [Song] = []
        for await result in Songs(reopened).request(StoreRequest()) { found = (try? result.get()) ?? [] }
        #expect(found == [Song(id: "1", title: "v199b")])
        await reopened.close()
    }

    /// A controller of the app's own keeps its writes in order too: by default each waits for
    /// the one before, however long that one takes.
    @Test(.timeLimit(.minutes(5))) func anAppsOwnControllerWritesInDispatchOrder() async {
        let controller = SlowController()
        let store = Store(
            initialState: SlowController.State(), reducer: SlowController.makeReducer(),
            middleware: [controller.makeMiddleware()])
        for i in 0..<20 { store.dispatch(.save(i)) }
        store.dispatch(.delete(3))
        // Waits for the 21 writes without spinning: a spin on the main actor would take a
        // core from the writes it waits for.
        var writes = 0
        for await _ in controller.written {
            writes += 1
            if writes == 21 { break }
        }
        #expect(controller.log.withLock { $0 } == (0..<20).map { "save \($0)" } + ["delete 3"])
    }

    /// Saves take longer the earlier they were started: unordered, they would finish backwards.
    final class SlowController: PersistenceController {
        let log = Mutex<[String]>([])
        /// An element each time a write is logged.
        let written: AsyncStream<Void>
        private let wrote: AsyncStream<Void>.Continuation

        init() { (written, wrote) = AsyncStream.makeStream() }

        func save(_ element: Int) async throws(StoreError) -> Int {
            for _ in 0..<(20 - element) { await Task.yield() }
            log.withLock { $0.append("save \(element)") }
            wrote.yield()
            return element
        }

        func delete(_ element: Int) async throws(StoreError) {
            log.withLock { $0.append("delete \(element)") }
            wrote.yield()
        }

        func request(_ request: Int) -> AsyncStream<Result<[Int], StoreError>> {
            AsyncStream { $0.finish() }
        }
    }

    @Test func theControllersStateAndActionsAreCodableAndPrintReadably() throws {
        let failed = Songs.Action.saveFailed(error: StoreError(.io, "disk full"), element: Song(id: "1", title: "x"))
        let data = try JSONEncoder().encode(failed)
        #expect(try JSONDecoder().decode(Songs.Action.self, from: data) == failed)
        let state = Songs.State(request: .received([Song(id: "1", title: "x")]), persist: .processing)
        #expect(try JSONDecoder().decode(Songs.State.self, from: try JSONEncoder().encode(state)) == state)
        #expect("\(StoreError(.io, "disk full"))".contains("disk full"))
    }
}
