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
