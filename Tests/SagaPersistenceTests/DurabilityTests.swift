import SagaCore
import SagaPersistence
import Testing

@Suite("File store durability")
struct DurabilityTests {
    @Test func savesAndDeletesSurviveCloseAndReopen() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path)
            for i in 1...20 { _ = try await store.save(entity: "items", element: ["id": .int(i), "sq": .int(i * i)]) }
            _ = try await store.save(
                entity: "people", element: ["id": "ada", "born": 1815, "tags": ["math", 1.5, nil]])
            for i in stride(from: 2, through: 20, by: 2) { _ = try await store.delete(entity: "items", id: .int(i)) }
            _ = try await store.save(entity: "items", element: ["id": 3, "sq": "nine"])
            let before = try await all(store)
            await store.close()

            let again = try FileStore.open(directory: folder.path)
            #expect(try await all(again) == before)
            #expect(ids(before) == [1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
            #expect(try await all(again, "people") == [["id": "ada", "born": 1815, "tags": ["math", 1.5, nil]]])
            await again.close()
        }
    }

    @Test func snapshotThenMoreWritesThenReopen() async throws {
        try await withTemporaryFolder { folder in
            // A tiny threshold: every batch ends with a snapshot.
            let store = try FileStore.open(directory: folder.path, options: .init(snapshotThreshold: 1))
            for i in 1...30 { _ = try await store.save(entity: "items", element: ["id": .int(i)]) }
            for i in 1...10 { _ = try await store.delete(entity: "items", id: .int(i)) }
            await store.close()
            #expect(folder.files().contains { $0.hasPrefix("snapshot-") })
            #expect(folder.files().filter { $0.hasPrefix("log-") }.count == 1)

            let big = try FileStore.open(directory: folder.path)
            for i in 31...40 { _ = try await big.save(entity: "items", element: ["id": .int(i)]) }
            await big.close()

            let again = try FileStore.open(directory: folder.path)
            #expect(try await all(again) == (11...40).map { ["id": .int($0)] })
            await again.close()
        }
    }

    @Test func aNewerFormatIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path)
            _ = try await store.save(entity: "items", element: ["id": 1])
            await store.close()
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            bytes[8] = 2
            folder.write(log, bytes)
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .newerFormat && e.message.contains("newer") && e.path == log
            }
        }
    }
}
