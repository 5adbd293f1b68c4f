import Foundation

// sagabench: run in release mode, e.g. `swift run -c release sagabench`, or name workloads:
// `swift run -c release sagabench call fork-wake --count 100000 --json`.

/// The width of the workload column: the longest name and two spaces.
let nameWidth = (workloads.map(\.name.count).max() ?? 18) + 2
var selected: [String] = []
var countOverride: Int?
var json = false
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--json": json = true
    case "--like-sagarun": break  // read by `likeSagarun`
    case "--count":
        guard let v = args.popFirst(), let n = Int(v), n > 0 else {
            FileHandle.standardError.write(Data("error: --count needs a positive number\n".utf8))
            exit(64)
        }
        countOverride = n
    case "--help", "-h":
        print("USAGE: sagabench [<workload> ...] [--count N] [--json] [--like-sagarun]\n\nWORKLOADS:")
        for w in workloads {
            print(
                "  \(w.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))\(w.summary) (default \(w.defaultCount))"
            )
        }
        exit(0)
    default:
        guard workloads.contains(where: { $0.name == arg }) else {
            FileHandle.standardError.write(Data("error: unknown workload '\(arg)'; see --help\n".utf8))
            exit(64)
        }
        selected.append(arg)
    }
}

var results: [[String: Any]] = []
if !json {
    print(
        "workload".padding(toLength: nameWidth, withPad: " ", startingAt: 0),
        "count".padding(toLength: 12, withPad: " ", startingAt: 0), "seconds   ", "cpu s     ", "per second")
}
for w in workloads where selected.isEmpty || selected.contains(w.name) {
    do {
        var m = try w.run(countOverride ?? w.defaultCount)
        m.cpuSeconds = TimedRegion.cpuSeconds(ifWall: m.seconds)
        var row: [String: Any] = [
            "workload": w.name, "count": m.count, "unit": m.unit, "seconds": m.seconds, "perSecond": m.perSecond,
        ]
        if let cpu = m.cpuSeconds, let perCPU = m.perCPUSecond {
            row["cpuSeconds"] = cpu
            row["perCPUSecond"] = perCPU
        }
        for (k, v) in m.extra { row[k] = v }
        results.append(row)
        if !json {
            let rate =
                m.unit == "bytes"
                ? String(format: "%.1f MB/s", m.perSecond / 1e6) : String(format: "%.0f %@/s", m.perSecond, m.unit)
            print(
                w.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0),
                String(m.count).padding(toLength: 12, withPad: " ", startingAt: 0),
                String(format: "%-9.3f", m.seconds), m.cpuSeconds.map { String(format: "%-9.3f", $0) } ?? "-        ",
                rate)
            for (k, v) in m.extra.sorted(by: { $0.key < $1.key }) { print("    \(k): \(String(format: "%.0f", v))") }
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(w.name): \(error)\n".utf8))
        exit(1)
    }
}
if json, let data = try? JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys]) {
    print(String(decoding: data, as: UTF8.self))
}
