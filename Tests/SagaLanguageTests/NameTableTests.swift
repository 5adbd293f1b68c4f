import Testing

@testable import SagaLanguage

/// The checker's table of declared names (functions and sagas).
@Suite("The table of declared names")
struct NameTableTests {
    @Test func aNameFindsTheValueLastSetForIt() {
        var table = NameTable()
        table.set(1, for: "fetch")
        table.set(2, for: "main")
        table.set(3, for: "fetch")
        #expect(table.value(for: "fetch") == 3)
        #expect(table.value(for: "main") == 2)
        #expect(table.value(for: "other") == nil)
        #expect(table.count == 2)
        var seen: [String: Int] = [:]
        table.forEach { seen[$0] = $1 }
        #expect(seen == ["fetch": 3, "main": 2])
    }

    @Test func namesStayFoundWhenTheTableGrows() {
        var table = NameTable(capacity: 2)
        let names = (0..<500).map { "f\($0)_\(String(repeating: "x", count: $0 % 20))" }
        for (i, name) in names.enumerated() { table.set(i, for: name) }
        #expect(table.count == 500)
        #expect(names.indices.allSatisfy { table.value(for: names[$0]) == $0 })
        #expect(table.value(for: "f500") == nil)
    }

    @Test func removeAllEmptiesTheTableForReuse() {
        var table = NameTable()
        for i in 0..<20 { table.set(i, for: "n\(i)") }
        table.removeAll()
        #expect(table.count == 0)
        #expect(table.value(for: "n3") == nil)
        table.set(7, for: "n3")
        #expect(table.value(for: "n3") == 7)
        #expect(table.count == 1)
    }
}
