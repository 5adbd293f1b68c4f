import Foundation
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// README.md's Swift examples run and print what README says, and README shows no Swift that
/// `ReadmeExamples.swift` does not hold.
@MainActor @Suite(.timeLimit(.minutes(5))) struct ReadmeExampleTests {
    /// The lines `body` printed.
    func printed(_ body: () async -> Void) async -> [String] {
        let printed = Printed()
        await Printed.$current.withValue(printed) { await body() }
        return printed.lines
    }

    /// Runs `body` with a fresh folder, removed afterwards.
    func withFolder(_ body: (String) async -> Void) async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await body(folder)
    }

    @Test func runningSagasFromSwiftPrintsTheTranscript() async {
        let lines = await printed { await runningSagasFromSwift() }
        #expect(lines == [#"["action {\"id\":1,\"type\":\"user/load\"}", "Ada"] success"#])
    }

    @Test func theTypedPersistenceAPISavesAndReceives() async {
        await withFolder { folder in
            #expect(await printed { await theTypedPersistenceAPI(folder: folder) } == ["succeeded"])
        }
    }

    @Test func sagasOverTheAppsOwnStoreWithPersistenceAndATask() async {
        await withFolder { folder in
            #expect(await printed { await sagasOverTheAppsOwnStore(folder: folder) } == ["Ada So What"])
        }
    }

    @Test func aTypedSagaInSwiftLoadsTheUser() async throws {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Ada") }
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: { $0.reduce($1) }, middleware: [sagas.middleware])
        let program = try #require(Frontend().compile(source: "", path: "none.saga").program)
        let interpreter = sagas.interpreter(for: program, store: store, host: host, output: BufferedOutput())
        sagasInSwift(sagas, interpreter)
        let running = interpreter.start()
        store.dispatch(.fetchUser(id: 7))
        for await state in store.states() where state.user != nil { break }
        #expect(store.state.user == User(id: 7, name: "Ada"))
        interpreter.stop()
        _ = await running.value
    }

    /// Every ```swift block of README.md is in `ReadmeExamples.swift`, line for line
    /// (indentation aside), so that what README shows is what these tests run.
    @Test func everySwiftBlockOfTheReadmeIsAnExampleThatRuns() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        let examples = try String(contentsOf: here.appendingPathComponent("ReadmeExamples.swift"), encoding: .utf8)
        let exampleLines = Self.normalized(examples)
        let blocks = Self.swiftBlocks(of: readme)
        #expect(!blocks.isEmpty)
        for block in blocks {
            let lines = Self.normalized(block.replacingOccurrences(of: #""Library.store""#, with: "folder"))
            let found = Self.contains(exampleLines, lines)
            #expect(found, "README's block is not in ReadmeExamples.swift:\n\(block)")
        }
    }

    /// The text of each ```swift fence.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The lines, trimmed, without the empty ones.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `part` is a run of consecutive lines of `whole`.
    static func contains(_ whole: [String], _ part: [String]) -> Bool {
        guard !part.isEmpty, part.count <= whole.count else { return part.isEmpty }
        return (0...(whole.count - part.count)).contains { start in
            whole[start..<start + part.count].elementsEqual(part)
        }
    }
}
