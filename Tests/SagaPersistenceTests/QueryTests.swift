import SagaCore
import SagaPersistence
import Testing

@Suite("Queries of §7")
struct QueryTests {
    static let books: [Value] = [
        ["id": 1, "title": "Dune", "year": 1965, "tags": ["sf", "classic"], "author": ["name": "Herbert"]],
        ["id": 2, "title": "Neuromancer", "year": 1984, "tags": ["sf", "cyberpunk"], "author": ["name": "Gibson"]],
        ["id": 3, "title": "Emma", "year": 1815, "tags": ["classic"], "author": ["name": "Austen"]],
        ["id": 4, "title": "Hyperion", "year": 1989, "tags": ["sf"]],
        ["id": 5, "title": "Untitled"],
    ]

    func run(_ request: Value) throws -> [Value] {
        ids(try Query.parse(request).apply(Self.books))
    }

    @Test func noQueryReturnsEverythingOrderedById() throws {
        #expect(try run([:]) == [1, 2, 3, 4, 5])
        #expect(ids(Query().apply(Self.books.reversed())) == [1, 2, 3, 4, 5])
    }

    @Test func plainValuesMeanDeepEquality() throws {
        #expect(try run(["where": ["title": "Emma"]]) == [3])
        #expect(try run(["where": ["year": 1965.0]]) == [1])
        #expect(try run(["where": ["author.name": "Gibson"]]) == [2])
        #expect(try run(["where": ["tags": ["==": ["sf"]]]]) == [4])
        #expect(try run(["where": ["year": nil]]) == [5])
        #expect(try run(["where": ["tags.0": "classic"]]) == [3])
    }

    @Test func everyOperator() throws {
        #expect(try run(["where": ["year": ["==": 1984]]]) == [2])
        #expect(try run(["where": ["year": ["!=": 1984]]]) == [1, 3, 4, 5])
        #expect(try run(["where": ["year": ["<": 1965]]]) == [3])
        #expect(try run(["where": ["year": ["<=": 1965]]]) == [1, 3])
        #expect(try run(["where": ["year": [">": 1984]]]) == [4])
        #expect(try run(["where": ["year": [">=": 1984]]]) == [2, 4])
        #expect(try run(["where": ["year": ["in": [1815, 1989, "x"]]]]) == [3, 4])
        #expect(try run(["where": ["tags": ["contains": "classic"]]]) == [1, 3])
        #expect(try run(["where": ["title": ["contains": "man"]]]) == [2])
        #expect(try run(["where": ["title": ["prefix": "Hy"]]]) == [4])
    }

    @Test func allConditionsMustHold() throws {
        #expect(try run(["where": ["year": [">": 1900, "<": 1988], "tags": ["contains": "sf"]]]) == [1, 2])
    }

    @Test func comparisonsHoldOnlyBetweenValuesOfTheSameKind() throws {
        // A missing year is null, which is below every number in the total order, but it is not "< 2000".
        #expect(try run(["where": ["year": ["<": 2000]]]) == [1, 2, 3, 4])
        #expect(try run(["where": ["title": [">": "E"]]]) == [2, 3, 4, 5])
        #expect(try run(["where": ["year": [">": "1900"]]]) == [])
    }

    @Test func orderByDescendingWithTiesById() throws {
        let elements: [Value] = [
            ["id": "c", "year": 2000, "title": "B"], ["id": "a", "year": 2000, "title": "B"],
            ["id": "b", "year": 1990, "title": "A"], ["id": "d", "year": 2000, "title": "A"], ["id": "e"],
        ]
        let q = try Query.parse(["orderBy": ["-year", "title"]])
        #expect(ids(q.apply(elements)) == ["d", "a", "c", "b", "e"])
        let up = try Query.parse(["orderBy": ["year"]])
        #expect(ids(up.apply(elements)) == ["e", "b", "a", "c", "d"])
    }

    @Test func orderByUsesTheTotalOrderAcrossKinds() throws {
        let elements: [Value] = [
            ["id": 1, "v": "s"], ["id": 2, "v": 3], ["id": 3, "v": nil], ["id": 4, "v": true], ["id": 5, "v": [1]],
            ["id": 6, "v": ["k": 1]], ["id": 7],
        ]
        #expect(ids(try Query.parse(["orderBy": ["v"]]).apply(elements)) == [3, 7, 4, 2, 1, 5, 6])
    }

    @Test func limitAndOffsetPageTheOrderedResult() throws {
        #expect(try run(["orderBy": ["-id"], "limit": 2]) == [5, 4])
        #expect(try run(["orderBy": ["-id"], "limit": 2, "offset": 2]) == [3, 2])
        #expect(try run(["offset": 4, "limit": 10]) == [5])
        #expect(try run(["offset": 9]) == [])
        #expect(try run(["limit": 0]) == [])
        #expect(
            try run(["limit": 2.0, "entity": "books", "live": true, "ref": 7, "type": "persistence/request"]) == [1, 2])
    }

    @Test(
        arguments: [
            (["where": ["a": ["<": 1, "~": 1]]], "the condition on 'a' mixes operators with '~'"),
            (["where": ["a": ["in": 1]]], "'in' of field 'a' needs a list"),
            (["where": ["a": ["prefix": 1]]], "'prefix' of field 'a' needs a string"),
            (["where": [1, 2]], "'where' must be a record"),
            (["where": ["a..b": 1]], "bad field path 'a..b'"),
            (["orderBy": "year"], "'orderBy' must be a list"),
            (["orderBy": [1]], "'orderBy' must list field paths"),
            (["orderBy": ["-"]], "bad field path '-'"),
            (["limit": -1], "'limit' must be a non-negative integer, not -1"),
            (["offset": 1.5], "'offset' must be a non-negative integer"),
            (["limit": "ten"], "'limit' must be a non-negative integer"),
            ("books", "a request must be a record"),
        ] as [(Value, String)])
    func badQueriesAreRefusedWithAClearMessage(_ request: Value, _ message: String) {
        #expect {
            try Query.parse(request)
        } throws: { error in
            guard let e = error as? StoreError else { return false }
            return e.code == .invalidQuery && e.message.contains(message)
        }
    }
}

/// A query by id uses the index (and still applies its other conditions).
@Suite struct QueryByIDTests {
    @Test func byIDAndByIDListAgreeWithAScan() async throws {
        let store = MemoryStore()
        for i in 0..<50 { _ = try await store.save(entity: "e", element: ["id": .int(i), "even": .bool(i % 2 == 0)]) }
        let one = try await store.query(entity: "e", Query.parse(["where": ["id": 7]]))
        #expect(one == [["id": 7, "even": false]])
        let floatID = try await store.query(entity: "e", Query.parse(["where": ["id": ["==": 8.0]]]))
        #expect(floatID == [["id": 8, "even": true]])
        let some = try await store.query(
            entity: "e", Query.parse(["where": ["id": ["in": [3, 4, 5, 99]], "even": true]]))
        #expect(some == [["id": 4, "even": true]])
        let none = try await store.query(entity: "e", Query.parse(["where": ["id": 1000]]))
        #expect(none.isEmpty)
    }
}

/// A field maps to a value (equality) or to an operator record; a record with no operator
/// keys is a value.
@Suite struct WhereRecordValueTests {
    @Test func aRecordWithoutOperatorsIsComparedForEquality() async throws {
        let store = MemoryStore()
        _ = try await store.save(entity: "e", element: ["id": 1, "o": ["k": 1], "s": [:] as Value])
        _ = try await store.save(entity: "e", element: ["id": 2, "o": ["k": 2]])
        let byRecord = try await store.query(entity: "e", Query.parse(["where": ["o": ["k": 1]]]))
        #expect(byRecord.map { $0["id"] } == [1])
        let byEmpty = try await store.query(entity: "e", Query.parse(["where": ["s": [:] as Value]]))
        #expect(byEmpty.map { $0["id"] } == [1])
        let byOperator = try await store.query(entity: "e", Query.parse(["where": ["o": ["==": ["k": 2]]]]))
        #expect(byOperator.map { $0["id"] } == [2])
    }
}
