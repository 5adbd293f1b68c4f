import SagaCore
import SagaPersistence
import Testing

@Suite("The total order of values")
struct ValueOrderTests {
    /// One value of each kind, in the order “Queries” in Sagas/README.md gives, each kind from
    /// low to high.
    static let ascending: [Value] = [
        .null, false, true, -5, 1, 1.5, 2, "", "a", "b", "é", [], [1], [1, 2], [2], [:], ["a": 1], ["a": 2], ["b": 0],
    ]

    @Test func kindsThenValuesAreOrdered() {
        for (i, a) in Self.ascending.enumerated() {
            for (j, b) in Self.ascending.enumerated() {
                let expected = i < j ? -1 : (i == j ? 0 : 1)
                #expect(ValueOrder.compare(a, b) == expected, "\(a) vs \(b)")
            }
        }
    }

    @Test func numbersCompareExactlyAcrossIntAndDouble() {
        #expect(ValueOrder.compare(1, 1.0) == 0)
        #expect(ValueOrder.compare(.int(Int.max), 9_223_372_036_854_775_808.0) == -1)
        #expect(ValueOrder.compare(.int(1 << 53 + 1), .double(Double(1 << 53))) == 1)
        #expect(ValueOrder.compare(2.5, 2) == 1)
    }

    @Test func equalValuesCompareEqualDeeply() {
        #expect(ValueOrder.compare(["x": [1, ["y": 2.0]]], ["x": [1.0, ["y": 2]]]) == 0)
    }
}
