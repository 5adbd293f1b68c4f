import Foundation
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore

// The Swift examples of README.md, as written there: `ReadmeExampleTests` runs each one and
// checks what it prints, and checks that every Swift block of README.md is here, line for
// line (with the folder of a test in place of README's "Library.store").

/// What an example printed, for the test that runs it (see ``print(_:separator:terminator:)``).
final class Printed: @unchecked Sendable {
    @TaskLocal static var current: Printed?
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

/// The examples' `print`: into the running test's ``Printed``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Printed.current?.add(items.map { "\($0)" }.joined(separator: separator))
}

// MARK: - Running sagas from Swift

func runningSagasFromSwift() async {
    var host = HostFunctions()
    host.register("api.fetchUser") { (id: Int) async throws -> [String: String] in ["name": "Ada"] }

    let source = """
        extern func api.fetchUser(id)

        saga main {
          let a = take "user/load"
          let user = call api.fetchUser(a.id)
          log user.name
        }
        """
    let compiled = Frontend(hostFunctions: host.names).compile(source: source, path: "app.saga")
    guard let program = compiled.program else { fatalError(compiled.renderedDiagnostics) }
    let output = BufferedOutput()
    let interpreter = Interpreter(
        program: program, options: .init(virtualTime: true, printActions: true), host: host, output: output)
    let status = await interpreter.run(input: InputSource(lines: [#"{"type":"user/load","id":1}"#]))
    print(output.lines, status)  // ["action {\"id\":1,\"type\":\"user/load\"}", "Ada"] success
}

// MARK: - The typed persistence API

struct Song: Persistable, Equatable {
    static let entityName = "songs"
    var id: String
    var title: String
    var year: Int
}

typealias Songs = FileStoreController<Song>

@MainActor
func theTypedPersistenceAPI(folder: String) async {
    let container = FileStoreContainer(directory: folder)  // one per folder, shared
    let store = Store(
        initialState: Songs.State(), reducer: Songs.makeReducer(),
        middleware: [Songs(container).makeMiddleware()])  // results come back into `store`

    let song = Song(id: "1", title: "So What", year: 1959)
    store.dispatch(.save(song))
    store.dispatch(.request(StoreRequest(where: ["year": .lessThan(1960)], orderBy: ["-year"], live: true)))
    for await state in store.states() where state.persist == .succeeded && state.request == .received([song]) {
        print(state.persist)  // succeeded
        break
    }
    await container.close()
}

// MARK: - Sagas over your app's own store

struct Album: Persistable, Equatable {
    static let entityName = "albums"
    var id: String
    var songs: Int
}

typealias Albums = FileStoreController<Album>

struct User: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

enum AppAction: Codable, Sendable {
    case songs(Songs.Action), albums(Albums.Action), task(TaskCommand<AppState, AppAction>)
    case fetchUser(id: Int), userLoaded(user: User), play(title: String)
}

extension ActionPath<AppAction, Songs.Action> {
    static let songs = ActionPath(embed: AppAction.songs) { if case .songs(let a) = $0 { a } else { nil } }
}

extension ActionPath<AppAction, Albums.Action> {
    static let albums = ActionPath(embed: AppAction.albums) { if case .albums(let a) = $0 { a } else { nil } }
}

struct AppState: Codable, Sendable {
    var songs = Songs.State()
    var albums = Albums.State()
    var user: User?
    var playing: String?

    mutating func reduce(_ action: AppAction) {
        switch action {
        case .songs(let action): songs.reduce(action)
        case .albums(let action): albums.reduce(action)
        case .userLoaded(let user): self.user = user
        case .play(let title): playing = title
        case .task, .fetchUser: break
        }
    }
}

let usersSaga = """
    extern func api.fetchUser(id)

    saga users {
      every "fetchUser" as a {
        let user = call api.fetchUser(a.id)
        put "userLoaded" { user: user }
      }
    }
    """

@MainActor
func sagasOverTheAppsOwnStore(folder: String) async {
    let container = FileStoreContainer(directory: folder)
    var host = HostFunctions()
    host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Ada") }
    let tasks = TaskMiddleware<AppState, AppAction> { if case .task(let command) = $0 { command } else { nil } }
    let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
    let store = Store(
        initialState: AppState(), reducer: { $0.reduce($1) },
        middleware: [
            sagas.middleware, tasks.makeMiddleware(),
            Songs(container).makeMiddleware(action: .songs), Albums(container).makeMiddleware(action: .albums),
        ])

    let compiled = Frontend(hostFunctions: host.names).compile(source: usersSaga, path: "users.saga")
    guard let program = compiled.program else { fatalError(compiled.renderedDiagnostics) }
    let output = BufferedOutput()  // its `errors` say why a saga failed
    let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
    sagas.addSaga("countSongs", to: interpreter) { saga in
        var count = 0
        while true {
            guard case .songs(.saved) = try await saga.take("songs/saved") else { continue }
            count += 1
            try await saga.put(.albums(.save(Album(id: "all", songs: count))))
        }
    }
    let running = interpreter.start()  // the sagas see every action from here on

    let screen = TaskHandle()  // a screen's task: releasing the handle cancels it
    store.dispatch(
        .task(
            .run(
                TaskAction(id: "player", ownership: .owned(screen)) { context in
                    await context.dispatch(.play(title: "So What"))
                })))
    store.dispatch(.songs(.request(StoreRequest(live: true))))
    store.dispatch(.songs(.save(Song(id: "1", title: "So What", year: 1959))))
    store.dispatch(.fetchUser(id: 7))

    for await state in store.states()
    where state.user != nil && state.playing != nil && state.albums.persist == .succeeded {
        print(state.user?.name ?? "", state.playing ?? "")  // Ada So What
        break
    }
    interpreter.stop()  // `running` is the run's Task<RunStatus, Never>
    _ = await running.value
    await container.close()
}

// MARK: - Sagas in Swift

@MainActor
func sagasInSwift(_ sagas: SagaMiddleware<AppState, AppAction>, _ interpreter: Interpreter) {
    sagas.addSaga("fetchUser", to: interpreter) { saga in
        while true {
            guard case .fetchUser(let id) = try await saga.take("fetchUser") else { continue }
            let user: User = try await saga.call("api.fetchUser", id)
            if try await saga.select(\.user) != user { try await saga.put(.userLoaded(user: user)) }
        }
    }
}
