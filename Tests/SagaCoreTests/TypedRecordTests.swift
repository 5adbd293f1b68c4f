import Testing

@testable import SagaCore

/// `{type: "…"}` alone is kept as its string (`Record.Storage.typed`), so that copying an
/// action touches no reference count.
///
/// Nothing a program or the store can do tells it from the same record kept as entries.
@Suite struct TypedRecordTests {
    /// The ways a type-only action is made: the JSON reader, `Record(type:)`, entries in any
    /// order (a record literal in a saga), sorted entries.
    static func typed(_ type: String) throws -> [Record] {
        let entry = Record.Entry(key: "type", value: .string(type))
        guard case .record(let read) = try JSONReader.parse(#"{"type":"\#(type)"}"#) else { return [] }
        return [read, Record(type: type), Record(unsortedEntries: [entry]), Record(sortedEntries: [entry])]
    }

    /// The same record kept as entries: a dictionary literal sets its keys one by one.
    static func flat(_ type: String) -> Record {
        let r: Record = ["type": .string(type)]
        return r
    }

    /// Types short enough to be held in the string's own bits, and longer ones.
    static let types = ["ping", "", "counter/request", "counter/requested", String(repeating: "long/", count: 10)]

    @Test(arguments: types) func readsAsTheSameRecordKeptAsEntries(type: String) throws {
        let flat = Self.flat(type)
        #expect(!flat.isTyped)
        for r in try Self.typed(type) {
            #expect(r.isTyped)
            #expect(r == flat && flat == r)
            #expect(r.hashValue == flat.hashValue)
            #expect(r["type"] == .string(type) && r["by"] == nil)
            #expect(r.string(forKey: "type") == type && r.actionType == type && flat.actionType == type)
            #expect(r.withValue(forKey: "type") { $0 } == .string(type))
            #expect(r.count == 1 && !r.isEmpty && r.keys == ["type"] && r.values == [.string(type)])
            #expect(r.first?.key == "type" && r.map(\.key) == ["type"])
            #expect(Value.record(r).canonicalJSON == Value.record(flat).canonicalJSON)
            #expect(!Value.record(r).nests(deeperThan: 1) && Value.record(r).nests(deeperThan: 0))
        }
    }

    /// Two typed records have no storage to compare by address: they are equal only if their
    /// types are.
    @Test func typedRecordsOfOtherTypesDiffer() throws {
        let ping = try Self.typed("ping")
        let pong = try Self.typed("pong")
        for a in ping {
            #expect(a.storageIdentity == nil)
            for b in pong { #expect(a != b) }
            #expect(a != ["type": "ping", "n": 1] && a != ["kind": "ping"])
        }
    }

    /// Only a string `type` alone is typed.
    @Test func otherOneKeyRecordsAreKeptAsEntries() throws {
        for text in [#"{"type":1}"#, #"{"kind":"ping"}"#, #"{"type":"ping","n":1}"#, #"{"type":["a"]}"#] {
            guard case .record(let r) = try JSONReader.parse(text) else {
                Issue.record("not a record: \(text)")
                continue
            }
            #expect(!r.isTyped, "\(text)")
        }
    }

    /// Every change starts from the entries; a copy made before keeps the type alone.
    @Test func aChangeMakesItEntriesAndLeavesCopiesAlone() throws {
        for original in try Self.typed("ping") {
            var r = original
            r["by"] = 2
            #expect(r == ["type": "ping", "by": 2] && !r.isTyped)
            #expect(original == ["type": "ping"] && original.isTyped)

            var renamed = original
            renamed.modifyValue(forKey: "type") { $0 = "pong" }
            #expect(renamed == ["type": "pong"])

            var emptied = original
            emptied["type"] = nil
            #expect(emptied.isEmpty && emptied == Record())

            var kept = original
            #expect(!kept.insertIfAbsent("type", "other") && kept == original)
            #expect(kept.insertIfAbsent("n", 1) && kept == ["type": "ping", "n": 1])

            #expect(original.merging(["n": 1]) == ["type": "ping", "n": 1])
            #expect(Record().merging(original) == original)
        }
    }
}
