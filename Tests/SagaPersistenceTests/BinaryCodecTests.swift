import SagaCore
import Testing

@testable import SagaPersistence

@Suite("Binary encoding of values")
struct BinaryCodecTests {
    static let samples: [Value] = [
        .null, true, false, 0, 1, -1, 63, -64, 64, 1_000_000, .int(Int.max), .int(Int.min), 2.5, -0.0, 1e300,
        "", "héllo 😀", .string(String(repeating: "x", count: 300)), [], [1, "two", [3.0]],
        ["id": 7, "name": "Ada", "tags": ["a", "b"], "address": ["city": "Paris", "zip": nil]],
    ]

    @Test(arguments: samples)
    func roundTrips(_ value: Value) throws {
        var w = BinaryWriter()
        try w.write(value)
        let back = try w.bytes.withUnsafeBytes { raw in
            var r = BinaryReader(raw)
            let v = try r.value()
            #expect(r.remaining == 0)
            return v
        }
        #expect(back == value)
        #expect(ValueOrder.compare(back, value) == 0)
        if case .int = value { #expect({ if case .int = back { true } else { false } }()) }
    }

    @Test func refusesHandlesAndTooDeepNesting() {
        var w = BinaryWriter()
        #expect(throws: StoreError.self) { try w.write(["h": .handle(Handle(kind: .task, id: 1))]) }
        var deep: Value = 1
        for _ in 0...BinaryWriter.maxDepth { deep = [deep] }
        #expect(throws: StoreError.self) { try w.write(deep) }
    }

    @Test func truncatedOrBadBytesNeverCrash() throws {
        var w = BinaryWriter()
        try w.write(["id": 1, "list": [1, 2, "three"], "x": 2.5])
        for cut in 0..<w.bytes.count {
            let bytes = Array(w.bytes[..<cut])
            bytes.withUnsafeBytes { raw in
                var r = BinaryReader(raw)
                #expect(throws: BinaryReader.Malformed.self) { try r.value() }
            }
        }
        [UInt8]([9, 1, 2]).withUnsafeBytes { raw in
            var r = BinaryReader(raw)
            #expect(throws: BinaryReader.Malformed.self) { try r.value() }
        }
    }
}
