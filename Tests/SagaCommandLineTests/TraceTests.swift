import Foundation
import SagaCommandLine
import Testing

/// `--trace FILE` writes a Chrome Trace Event Format file that Perfetto can open: valid JSON
/// whose events have the fields their phase needs, balanced slices per track, named tracks,
/// paired flow arrows and timestamps that increase along each track and are all different.
@Suite struct TraceTests {
    static let program = """
        func fetch(n) { delay 50ms; return n * 2 }
        saga main {
          let t = fork { take "go"; put "went" }
          fork { take "went"; log "heard" }
          let r = race { a: call fetch(1), b: delay 10ms }
          log r
          join t
          throw "done"
        }
        """

    @Test func aTraceOpensAsChromeTraceEventFormat() async throws {
        try await ExitCodeTests.withFiles([
            "t.saga": Self.program, "in.jsonl": #"{"at": 100, "action": {"type":"go"}}"# + "\n",
        ]) { dir in
            let trace = dir.appendingPathComponent("trace.json").path
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    "run", dir.appendingPathComponent("t.saga").path, "--virtual-time", "--memory", "--input",
                    dir.appendingPathComponent("in.jsonl").path, "--trace", trace,
                ], io: io)
            #expect(code == 1)
            let data = try Data(contentsOf: URL(fileURLWithPath: trace))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let events = try #require(document["traceEvents"] as? [[String: Any]])

            var open: [Int: Int] = [:]
            var named: Set<Int> = []
            var flows: [Int: [String]] = [:]
            var last: [Int: Int] = [:]
            var stamps: Set<Int> = []
            var names: [String] = []
            var putAt: Int?
            var wentAt: Int?
            for event in events {
                let ph = try #require(event["ph"] as? String)
                #expect(event["pid"] as? Int == 1)
                let tid = try #require(event["tid"] as? Int)
                if ph == "M" {
                    named.insert(tid)
                    continue
                }
                let ts = try #require(event["ts"] as? Int)
                #expect(ts > last[tid, default: -1], "timestamps increase along a track")
                last[tid] = ts
                #expect(stamps.insert(ts).inserted, "no two events share a timestamp")
                if event["name"] as? String == "went" { wentAt = ts }
                switch ph {
                case "B":
                    names.append(try #require(event["name"] as? String))
                    if event["name"] as? String == "put" { putAt = ts }
                    #expect(named.contains(tid), "a slice's track is named first")
                    open[tid, default: 0] += 1
                case "E":
                    open[tid, default: 0] -= 1
                    #expect(open[tid, default: 0] >= 0)
                case "i":
                    names.append(try #require(event["name"] as? String))
                    #expect(event["name"] as? String != "put", "a put that waited is a slice, not an instant too")
                case "s", "f":
                    flows[try #require(event["id"] as? Int), default: []].append(ph)
                default:
                    Issue.record("unexpected phase \(ph)")
                }
            }
            #expect(open.values.allSatisfy { $0 == 0 }, "every slice ends")
            #expect(flows.values.allSatisfy { $0 == ["s", "f"] }, "each fork arrow has a start and an end")
            #expect(!flows.isEmpty)
            for expected in ["take", "race", "call", "delay", "join", "go", "went", "error"] {
                #expect(names.contains(expected), "\(expected) is in the trace")
            }
            // The `put` woke a taker, so it waited: its slice begins before its action.
            let put = try #require(putAt)
            let went = try #require(wentAt)
            #expect(put < went)
        }
    }

    @Test func anUnwritableTracePathExits74() async {
        await ExitCodeTests.withFiles(["t.saga": "saga main { }"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                ["run", dir.appendingPathComponent("t.saga").path, "--memory", "--trace", "/no/such/dir/trace.json"],
                io: io)
            #expect(code == 74)
            #expect(io.stderr.contains("cannot write the trace file"))
        }
    }
}
