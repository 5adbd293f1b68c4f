import SagaCore
import SagaPersistence
import Testing

/// The behaviour both stores share: written once, run for each.
@Suite("Element store behaviour")
struct StoreBehaviourTests {
    @Test(arguments: StoreKind.allCases)
    func saveInsertsAndReplacesById(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let ada: Value = ["id": 1, "name": "Ada"]
        #expect(try await store.save(entity: "items", element: ada) == ada)
        _ = try await store.save(entity: "items", element: ["id": "b", "name": "Bob"])
        _ = try await store.save(entity: "items", element: ["id": 1, "name": "Ada L."])
        #expect(try await all(store) == [["id": 1, "name": "Ada L."], ["id": "b", "name": "Bob"]])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func deleteReturnsTheDeletedElementOrNil(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        _ = try await store.save(entity: "items", element: ["id": 1, "x": 1])
        _ = try await store.save(entity: "items", element: ["id": 2, "x": 2])
        #expect(try await store.delete(entity: "items", id: 1) == ["id": 1, "x": 1])
        #expect(try await store.delete(entity: "items", id: 1) == nil)
        #expect(try await store.delete(entity: "nothing", id: "z") == nil)
        #expect(try await all(store) == [["id": 2, "x": 2]])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func entitiesAreSeparateCollections(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        _ = try await store.save(entity: "users", element: ["id": 1, "name": "Ada"])
        _ = try await store.save(entity: "books", element: ["id": 1, "title": "Dune"])
        #expect(try await all(store, "users") == [["id": 1, "name": "Ada"]])
        #expect(try await all(store, "books") == [["id": 1, "title": "Dune"]])
        #expect(try await all(store, "films") == [])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func queriesFilterOrderAndPage(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        for i in 1...10 {
            _ = try await store.save(
                entity: "items", element: ["id": .int(i), "even": .bool(i % 2 == 0), "n": .int(i % 3)])
        }
        let q = try Query.parse(["where": ["even": true], "orderBy": ["-n"], "limit": 3, "offset": 1])
        // Even ids 2 4 6 8 10 have n 2 1 0 2 1: by -n then id: 2 8 4 10 6.
        #expect(ids(try await store.query(entity: "items", q)) == [8, 4, 10])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func invalidElementsAreRefusedAndChangeNothing(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let bad: [Value] = [
            42, "x", [1], ["name": "no id"], ["id": true], ["id": 1.5], ["id": ["a"]],
            ["id": 1, "h": .handle(Handle(kind: .channel, id: 3))],
        ]
        for element in bad {
            await #expect {
                try await store.save(entity: "items", element: element)
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .invalidElement && (e.message.contains("'id'") || e.message.contains("handle"))
            }
        }
        await #expect(throws: StoreError.self) { try await store.delete(entity: "items", id: [1]) }
        // A number, a bool or null is named by its value.
        for (id, shown) in [(Value.double(1.5), "1.5"), (true, "true"), (.null, "null")] {
            await #expect {
                try await store.save(entity: "items", element: ["id": id])
            } throws: { error in
                (error as? StoreError)?.message == "an element's 'id' must be a string or an integer, not \(shown)"
            }
        }
        #expect(try await all(store) == [])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func anIntegralDoubleIdFindsTheIntegerId(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        _ = try await store.save(entity: "items", element: ["id": 3])
        #expect(try await store.delete(entity: "items", id: 3.0) == ["id": 3])
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func everyCallAfterCloseThrowsClosed(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        await store.close()
        for call in 0..<3 {
            await #expect {
                switch call {
                case 0: _ = try await store.save(entity: "items", element: ["id": 1])
                case 1: _ = try await store.delete(entity: "items", id: 1)
                default: _ = try await store.query(entity: "items", Query())
                }
            } throws: { ($0 as? StoreError)?.code == .closed }
        }
        await store.close()
    }
}
