import Foundation
import SagaCore
import Testing

@testable import SagaRuntime

/// The trace writer's own buffer: events that span its flushes, events larger than the whole
/// buffer, names that need escaping, numbers of every width and tracks named once each.
@Suite struct ChromeTraceTests {
    /// Writes events through `body` into a new trace file and returns them parsed.
    private func events(_ body: (ChromeTrace) -> Void) throws -> [[String: Any]] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("chrome-trace-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let trace = try #require(ChromeTrace(path: path))
        body(trace)
        #expect(trace.close() == nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["traceEvents"] as? [[String: Any]])
    }

    @Test func numbersOfEveryWidthAndNamesThatNeedEscapingReadBack() throws {
        let stamps = [0, 9, 10, 99, 100, 12_345, 999_999_999, 1_000_000_000_000]
        let names = ["take", "say \"hi\"", "back\\slash", "tab\there", "é ü", "line\nbreak"]
        let read = try events { trace in
            for (i, ms) in stamps.enumerated() {
                trace.instant(names[i % names.count], tid: i * 1_000_003, at: ms)
            }
        }
        #expect(read.map { $0["tid"] as? Int } == stamps.indices.map { $0 * 1_000_003 })
        #expect(
            read.map { $0["ts"] as? Int } == [
                0, 9000, 10000, 99000, 100_000, 12_345_000, 999_999_999_000, 1_000_000_000_000_000,
            ])
        #expect(read.map { $0["name"] as? String } == stamps.indices.map { names[$0 % names.count] })
    }

    @Test func eventsLargerThanTheBufferAndManyTracksReadBack() throws {
        let big = Value.string(String(repeating: "x", count: 200_000))
        let read = try events { trace in
            for round in 0..<3 {
                for tid in 0..<200 {
                    trace.track(tid, "task")
                    trace.begin(
                        tid, "take", argument: "effect", json: Array(#""t.saga:1:1 (take \"a\")""#.utf8), at: round)
                    trace.end(tid, at: round)
                }
                trace.instant("big", tid: nil, argument: "action", big, at: round)
            }
        }
        let metadata = read.filter { $0["ph"] as? String == "M" }
        #expect(metadata.count == 200, "each track is named once")
        #expect(read.filter { $0["ph"] as? String == "B" }.count == 600)
        let effects = read.compactMap { ($0["args"] as? [String: Any])?["effect"] as? String }
        #expect(effects.count == 600 && effects.allSatisfy { $0 == #"t.saga:1:1 (take "a")"# })
        let actions = read.compactMap { ($0["args"] as? [String: Any])?["action"] as? String }
        #expect(actions.count == 3 && actions.allSatisfy { $0.count == 200_000 })
        let stamps = read.compactMap { $0["ts"] as? Int }
        #expect(stamps == stamps.sorted() && Set(stamps).count == stamps.count)
    }
}
