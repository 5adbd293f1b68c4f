import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore

/// The music library: one store folder, a store with the persistence and saga middleware,
/// and the app's sagas running over it on the main actor.
///
/// ```swift
/// let app = try await LibraryApp.open(directory: "Library.store")
/// app.add(title: "so what", album: "kind of blue", year: 1959)
/// await app.settled()
/// print(app.songs, app.albums)     // "So What" on "Kind of Blue", which has 1 song
/// await app.close()
/// ```
@MainActor
public final class LibraryApp {
    /// The app's store; dispatch ``AppAction``s to it, or use ``add(title:album:year:)``.
    public let store: Store<AppState, AppAction>
    /// What the sagas logged, and the interpreter's errors.
    public let output: BufferedOutput
    private let container: FileStoreContainer
    private let interpreter: Interpreter
    private var running: Task<RunStatus, Never>?

    private init(
        store: Store<AppState, AppAction>, container: FileStoreContainer, interpreter: Interpreter,
        output: BufferedOutput
    ) {
        self.store = store
        self.output = output
        self.container = container
        self.interpreter = interpreter
    }

    /// Opens the library in `directory` (created if missing), starts its sagas, and loads
    /// the songs and albums already there (kept live from then on).
    ///
    /// - Throws: ``LibraryError`` when the folder cannot be opened, for example while
    ///   another process has it open.
    public static func open(directory: String) async throws(LibraryError) -> LibraryApp {
        let container = FileStoreContainer(directory: directory)
        if case .failed(let error) = await container.load() {
            throw LibraryError("cannot open the library in \(directory): \(error)")
        }
        let host = Catalog.hostFunctions
        let compiled = Frontend(hostFunctions: host.names).compile(source: LibrarySagas.source, path: "library.saga")
        guard let program = compiled.program else { throw LibraryError(compiled.renderedDiagnostics) }

        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(
            initialState: AppState(), reducer: { $0.reduce($1) },
            middleware: [
                sagas.middleware,
                Songs(container).makeMiddleware(action: .songs),
                Albums(container).makeMiddleware(action: .albums),
            ])
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
        sagas.addSaga("keepAlbums", to: interpreter, LibrarySagas.keepAlbums)
        let app = LibraryApp(store: store, container: container, interpreter: interpreter, output: output)
        app.running = interpreter.start()

        store.dispatch(.songs(.request(StoreRequest(orderBy: ["album", "title"], live: true))))
        store.dispatch(.albums(.request(StoreRequest(orderBy: ["title"], live: true))))
        await app.waitUntil { state in
            state.songs.request.isSettled && state.albums.request.isSettled
        }
        return app
    }

    /// Adds a song; the sagas normalize, save and count it.
    ///
    /// See ``settled()``.
    public func add(title: String, album: String, year: Int) {
        store.dispatch(.addSong(title: title, album: album, year: year))
    }

    /// Waits until every added song is saved and its album counted (or failed).
    public func settled() async {
        await waitUntil { $0.inFlight == 0 }
    }

    /// The songs, by album then title.
    public var songs: [Song] {
        store.state.songsByID.values.sorted { ($0.album, $0.title, $0.id) < ($1.album, $1.title, $1.id) }
    }

    /// The albums, by title.
    public var albums: [Album] {
        store.state.albumsByID.values.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
    }

    /// The album titled `title` (normalized as the sagas do) and its songs, or `nil`.
    public func album(titled title: String) -> (album: Album, songs: [Song])? {
        guard let album = store.state.albumsByID[Catalog.albumID(title: title)] else { return nil }
        return (album, songs.filter { $0.album == album.title })
    }

    /// Waits, without polling, until the state satisfies `condition`.
    public func waitUntil(_ condition: (AppState) -> Bool) async {
        for await state in store.states() where condition(state) { return }
    }

    /// Settles, stops the live requests and the sagas, and closes the store folder.
    ///
    /// - Returns: how the sagas ended (`.success` unless one failed).
    @discardableResult
    public func close() async -> RunStatus {
        await settled()
        store.dispatch(.songs(.cancelRequest))
        store.dispatch(.albums(.cancelRequest))
        interpreter.stop()
        let status = await running?.value ?? .success
        await container.close()
        return status
    }
}
