import Foundation
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore
import Testing

/// The Swift examples of README.md, as written there (with a test's scheduler and folder
/// where the README uses the main queue and a fixed path): if these stop compiling or
/// working, the README is wrong.
@Suite struct ReadmeExampleTests {
    @Test func runningSagasFromSwift() async {
        var host = HostFunctions()
        host.register("api.fetchUser") { args in
            ["id": args.first ?? .null, "name": "Ada"]
        }

        let source = """
            saga main {
              let a = take "user/load"
              let user = call api.fetchUser(a.id)
              log user.name
            }
            """
        let result = Frontend(hostFunctions: host.names).compile(source: source, path: "app.saga")
        guard let program = result.program else {
            Issue.record(Comment(rawValue: result.renderedDiagnostics))
            return
        }
        let output = BufferedOutput()
        let interpreter = Interpreter(
            program: program, options: .init(virtualTime: true, printActions: true), host: host, output: output)
        let status = await interpreter.run(input: InputSource(lines: [#"{"type":"user/load","id":1}"#]))
        #expect(output.lines == [#"action {"id":1,"type":"user/load"}"#, "Ada"])
        #expect(status == .success)
    }

    struct Song: Persistable, Equatable {
        static let entityName = "songs"
        var id: String
        var title: String
        var year: Int
    }

    typealias Songs = FileStoreController<Song>

    @Test func theTypedPersistenceAPI() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let container = FileStoreContainer(directory: folder)
        let queue = DispatchQueue(label: "store")
        let scheduler = QueueWorkScheduler<Songs.Action>(queue: queue)
        let store = Store(
            initialState: Songs.State(), reducer: Songs.makeReducer(),
            middleware: [Songs(container).makeMiddleware(scheduler: scheduler)])
        let delivered = AsyncStream<Void>.makeStream()
        scheduler.deliver = { [unowned store] action in
            store.dispatch(action)
            delivered.continuation.yield()
        }
        let song = Song(id: "1", title: "So What", year: 1959)
        var received = false
        var saved = false
        queue.sync {
            store.dispatch(.save(song))
            store.dispatch(.request(StoreRequest(where: ["year": .lessThan(1960)], orderBy: ["-year"], live: true)))
        }
        for await _ in delivered.stream {
            queue.sync {
                saved = store.state.persist == .succeeded
                received = store.state.request == .received([song])
            }
            if saved && received { break }
        }
        #expect(saved)
        #expect(received)
        await container.close()
    }
}

/// README: "Sagas over your app's own store" and "Sagas in Swift".
@MainActor @Suite struct ReadmeEmbeddingExampleTests {
    struct AppState: Codable {
        var count = 0
        var user: String?
    }
    enum AppAction: Codable { case increment(by: Int), loadUser(id: Int), userLoaded(name: String) }
    struct User: Codable {
        var id: Int
        var name: String
    }

    static func appReducer(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .increment(let by): state.count += by
        case .userLoaded(let name): state.user = name
        case .loadUser: break
        }
    }

    @Test func sagasOverTheAppsStoreWithANativeSaga() async {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Ada") }
        host.register("api.check") { (action: Value) async throws -> Bool in action["type"] == "userLoaded" }

        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.appReducer, middleware: [sagas.middleware])
        let source = """
            saga users {
              every "loadUser" as a {
                let user = call api.fetchUser(a.id)
                put "userLoaded" { name: user.name }
              }
            }
            """
        let compiled = Frontend(hostFunctions: host.names).compile(source: source, path: "users.saga")
        guard let program = compiled.program else {
            Issue.record(Comment(rawValue: compiled.renderedDiagnostics))
            return
        }
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
        let audited = AsyncStream<Value>.makeStream()
        interpreter.addSaga("audit") { saga in
            while true {
                let action = try await saga.take("user*")
                let state = try await saga.select()
                let checked = try await saga.call("api.check", action)
                audited.continuation.yield(["ok": checked, "user": state["user"]])
            }
        }
        let running = Task { await interpreter.run() }
        await Task.yield()
        store.dispatch(.loadUser(id: 7))
        var seen: [Value] = []
        for await entry in audited.stream {
            seen.append(entry)
            if seen.count == 1 { break }
        }
        #expect(store.state.user == "Ada")
        #expect(seen == [["ok": true, "user": "Ada"]])
        interpreter.stop()
        #expect(await running.value == .success)
    }
}

/// README: "The task middleware".
@Suite struct ReadmeTaskMiddlewareExampleTests {
    struct State: Sendable { var progress = 0 }
    enum Action: Sendable { case task(TaskCommand<State, Action>), progress(Int) }

    static func reduce(_ state: inout State, _ action: Action) {
        if case .progress(let p) = action { state.progress = p }
    }

    @Test func aScreenOwnsItsSearchTask() async {
        let thread = ManualStoreThread()
        let clock = VirtualTaskClock()
        let tasks = TaskMiddleware<State, Action>(
            thread: thread, clock: clock,
            extract: { if case .task(let command) = $0 { command } else { nil } })
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [tasks.makeMiddleware()])

        let screen = TaskHandle()
        store.dispatch(
            .task(
                .run(
                    TaskAction(id: "search", policy: .cancelInFlight, ownership: .owned(screen)) { context in
                        try await context.sleep(for: .milliseconds(300))
                        await context.dispatch(.progress(100))
                    })))
        thread.runUntilIdle()
        thread.advance(clock, by: .milliseconds(300))
        #expect(store.state.progress == 100)

        store.dispatch(
            .task(
                .run(
                    TaskAction(id: "search", policy: .cancelInFlight, ownership: .owned(screen)) { context in
                        try await context.sleep(for: .milliseconds(300))
                        await context.dispatch(.progress(50))
                    })))
        thread.runUntilIdle()
        store.dispatch(.task(.cancel("search")))
        thread.advance(clock, by: .milliseconds(300))
        #expect(store.state.progress == 100)
        #expect(tasks.runningTaskIDs.isEmpty)
    }
}
