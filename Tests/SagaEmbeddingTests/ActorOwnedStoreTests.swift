import Foundation
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore
import Testing

/// An actor that makes its store in its synchronous `init`, where `#isolation` is `nil`, and
/// does not bind it: the interpreter it starts makes the store its own, so that the
/// persistence middleware's dispatcher delivers on it rather than stopping the program.
private actor Library {
    struct Song: Persistable, Equatable {
        static let entityName = "songs"
        var id: String
        var title: String
    }

    typealias Songs = FileStoreController<Song>

    enum AppAction: Codable, Sendable {
        case addSong(title: String)
        case songs(Songs.Action)
    }

    struct AppState: Codable {
        var songs = Songs.State()
        var saved: [String] = []
    }

    static let songsPath = ActionPath<AppAction, Songs.Action>(embed: AppAction.songs) {
        if case .songs(let action) = $0 { action } else { nil }
    }

    let store: Store<AppState, AppAction>
    let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
    let container: FileStoreContainer

    init(directory: String) {
        container = FileStoreContainer(directory: directory)
        let reduceSongs = Songs.makeReducer(state: \AppState.songs, action: Self.songsPath)
        store = Store(
            initialState: AppState(),
            reducer: { state, action in
                reduceSongs(&state, action)
                if case .songs(.saved(let song)) = action { state.saved.append(song.title) }
            },
            middleware: [sagas.middleware, Songs(container).makeMiddleware(action: Self.songsPath)])
    }

    /// Runs a saga that saves each song added, adds `titles`, and returns the titles saved.
    func saveEach(_ titles: [String]) async throws -> (saved: [String], status: RunStatus, errors: [String]) {
        let source = """
            saga library {
              every "addSong" as a {
                put "songs/save" { element: { id: a.title, title: a.title } }
              }
            }
            """
        let program = try #require(Frontend().compile(source: source, path: "library.saga").program)
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, output: output)
        let running = interpreter.start()
        for title in titles { store.dispatch(.addSong(title: title)) }
        for await state in store.states() where state.saved.count == titles.count { break }
        interpreter.stop()
        let status = await running.value
        await container.close()
        return (store.state.saved, status, output.errors)
    }
}

@Suite struct ActorOwnedStoreTests {
    @Test(.timeLimit(.minutes(5))) func anUnboundStoreTakesTheActorItsInterpreterStartsOn() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("actor-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let library = Library(directory: dir)
        let result = try await library.saveEach(["So What", "Blue in Green", "Freddie Freeloader"])
        // The saves are acknowledged in the order they were dispatched.
        #expect(result.saved == ["So What", "Blue in Green", "Freddie Freeloader"])
        #expect(result.status == .success)
        #expect(result.errors.isEmpty)
    }
}
