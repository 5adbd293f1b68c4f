import Foundation
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore
import Testing

/// An app adopts sagas and persistence with the public API alone: two controllers share one
/// container, their middleware and reducers work in the app's own store through action paths,
/// and a scripted saga takes and puts the controllers' actions through a `CodableBridge`.
@MainActor @Suite struct AppAdoptionTests {
    struct Song: Persistable, Equatable {
        static let entityName = "songs"
        var id: String
        var title: String
    }

    struct Album: Persistable, Equatable {
        static let entityName = "albums"
        var id: String
        var songs: Int
    }

    typealias Songs = FileStoreController<Song>
    typealias Albums = FileStoreController<Album>

    enum AppAction: Codable, Sendable {
        case addSong(title: String)
        case songs(Songs.Action)
        case albums(Albums.Action)
    }

    struct AppState: Codable {
        var songs = Songs.State()
        var albums = Albums.State()
        var lastAlbum: Album?
    }

    static let songsPath = ActionPath<AppAction, Songs.Action>(embed: AppAction.songs) {
        if case .songs(let action) = $0 { action } else { nil }
    }
    static let albumsPath = ActionPath<AppAction, Albums.Action>(embed: AppAction.albums) {
        if case .albums(let action) = $0 { action } else { nil }
    }

    static let source = """
        saga library {
          every "addSong" as a {
            put "songs/save" { element: { id: a.title, title: a.title } }
          }
          var count = 0
          loop {
            let saved = take "songs/saved"
            count = count + 1
            put "albums/save" { element: { id: "all", songs: count } }
          }
        }
        """

    /// Waits (without sleeping) until the store's state satisfies `condition`.
    func waitFor(_ store: Store<AppState, AppAction>, _ condition: (AppState) -> Bool) async {
        for await state in store.states() where condition(state) { return }
    }

    @Test(.timeLimit(.minutes(5))) func twoControllersAndASagaWorkInTheAppsOwnStore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("adopt-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let container = FileStoreContainer(directory: dir)
        // `@Sendable`, so that an app may keep it in a global constant.
        let songs: @Sendable (inout AppState, AppAction) -> Void = Songs.makeReducer(
            state: \AppState.songs, action: Self.songsPath)
        let albums = Albums.makeReducer(state: \AppState.albums, action: Self.albumsPath)
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(
            initialState: AppState(),
            reducer: { state, action in
                songs(&state, action)
                albums(&state, action)
                if case .albums(.saved(let album)) = action { state.lastAlbum = album }
            },
            middleware: [
                sagas.middleware,
                Songs(container).makeMiddleware(action: Self.songsPath),
                Albums(container).makeMiddleware(action: Self.albumsPath),
            ])
        let program = try #require(Frontend().compile(source: Self.source, path: "library.saga").program)
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, output: output)
        let running = interpreter.start()

        for title in ["So What", "Blue in Green", "Freddie Freeloader"] { store.dispatch(.addSong(title: title)) }
        await waitFor(store) { $0.lastAlbum?.songs == 3 }
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
        await container.close()

        let reopened = FileStoreContainer(directory: dir)
        var stored: [Song] = []
        for await result in Songs(reopened).request(StoreRequest()) { stored = (try? result.get()) ?? [] }
        #expect(stored.map(\.title).sorted() == ["Blue in Green", "Freddie Freeloader", "So What"])
        var counted: [Album] = []
        for await result in Albums(reopened).request(StoreRequest()) { counted = (try? result.get()) ?? [] }
        #expect(counted == [Album(id: "all", songs: 3)])
        await reopened.close()
    }

    /// Only a case whose value is an enum is a wrapped action: a struct or a dictionary that
    /// encodes as a record of one record is a value, whatever its contents.
    @Test func theCodableBridgeFlattensOnlyWrappedEnums() throws {
        struct Profile: Codable { var bio: [String: String] }
        enum Action: Codable {
            case loaded(Profile)
            case update([String: Song])
        }
        let bridge = CodableBridge<AppState, Action>()
        let loaded = try #require(bridge.value(of: .loaded(Profile(bio: ["en": "hi"]))))
        #expect(loaded.canonicalJSON == #"{"_0":{"bio":{"en":"hi"}},"type":"loaded"}"#)
        let update = try #require(bridge.value(of: .update(["s1": Song(id: "1", title: "x")])))
        #expect(update["type"] == "update")
    }

    @Test func theCodableBridgeShowsAWrappedActionAsOneTypeAndTakesItBack() throws {
        let bridge = CodableBridge<AppState, AppAction>()
        let saved = AppAction.songs(.saved(Song(id: "1", title: "So What")))
        let value = try #require(bridge.value(of: saved))
        #expect(value.canonicalJSON == #"{"element":{"id":"1","title":"So What"},"type":"songs/saved"}"#)
        guard case .songs(.saved(let song)) = try bridge.action(from: value) else {
            Issue.record("the value did not decode to the same action")
            return
        }
        #expect(song == Song(id: "1", title: "So What"))
        let canceled = try #require(bridge.value(of: .albums(.canceled)))
        #expect(canceled.canonicalJSON == #"{"type":"albums/canceled"}"#)
        guard case .albums(.canceled) = try bridge.action(from: canceled) else {
            Issue.record("albums/canceled did not decode")
            return
        }
    }

    /// A typed request reaches a saga, and comes back from one, in the shape a saga writes a
    /// `persistence/request` in: `where` with operator records or values, `orderBy`, `limit`,
    /// `offset`, `live`.
    @Test func aTypedRequestIsWrittenAsASagaWritesARequest() throws {
        let bridge = CodableBridge<AppState, AppAction>()
        let request = StoreRequest<Song>(
            where: ["year": .lessThan(1960), "title": .equals("So What")], orderBy: ["-year"], limit: 5, live: true)
        let value = try #require(bridge.value(of: .songs(.request(request))))
        #expect(
            value.canonicalJSON
                == #"{"request":{"limit":5,"live":true,"orderBy":["-year"],"where":{"title":{"==":"So What"},"year":{"<":1960}}},"type":"songs/request"}"#
        )
        // As a saga writes one: a plain value is equality, and every key is optional.
        let written = try JSONReader.parse(
            #"{"type":"songs/request","request":{"where":{"year":{"<":1960},"title":"So What"},"offset":2}}"#)
        guard case .songs(.request(let read)) = try bridge.action(from: written) else {
            Issue.record("the request did not decode")
            return
        }
        #expect(read == StoreRequest<Song>(where: ["year": .lessThan(1960), "title": .equals("So What")], offset: 2))
        let empty = try JSONReader.parse(#"{"type":"songs/request","request":{}}"#)
        guard case .songs(.request(let all)) = try bridge.action(from: empty) else {
            Issue.record("an empty request did not decode")
            return
        }
        #expect(all == StoreRequest<Song>())
        // A misspelt key is refused, naming it.
        let misspelt = try JSONReader.parse(#"{"type":"songs/request","request":{"limt":1}}"#)
        #expect {
            try bridge.action(from: misspelt)
        } throws: { error in
            (error as? SagaError)?.message
                == #"expected AppAction, got {"request":{"limt":1},"type":"songs/request"}: songs.request.request: "#
                + "a request has no 'limt': it has where, orderBy, limit, offset and live"
        }
        // A field of the wrong kind says which.
        let wrongKind = try JSONReader.parse(#"{"type":"addSong","title":7}"#)
        #expect {
            try bridge.action(from: wrongKind)
        } throws: { error in
            (error as? SagaError)?.message
                == #"expected AppAction, got {"title":7,"type":"addSong"}: addSong.title: not a String"#
        }
    }

    /// A lifted middleware sees only the actions its path finds, reads its part of the state,
    /// and what it dispatches arrives wrapped.
    @Test func aLiftedMiddlewareWorksOnItsPartOfTheStore() {
        enum Inner: Equatable, Sendable { case ping, pong(Int) }
        enum Outer: Equatable, Sendable { case inner(Inner), other }
        struct State { var inner = 0, log: [Outer] = [] }
        let path = ActionPath<Outer, Inner>(embed: Outer.inner) { if case .inner(let a) = $0 { a } else { nil } }
        let seen = Middleware<Int, Inner> { api, next in
            { action in
                next(action)
                if action == .ping { api.dispatch(.pong(api.state)) }
            }
        }
        let store = Store(
            initialState: State(inner: 7),
            reducer: { (state: inout State, action: Outer) in state.log.append(action) },
            middleware: [seen.lifted(state: \.inner, action: path)])
        store.dispatch(.other)
        store.dispatch(.inner(.ping))
        #expect(store.state.log == [.other, .inner(.ping), .inner(.pong(7))])
    }
}
