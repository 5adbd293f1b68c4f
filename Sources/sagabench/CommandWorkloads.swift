import Foundation
import SagaCommandLine
import SagaRuntime

/// Workloads that run a `sagarun` command in this process: what the command line adds to the
/// interpreter (the persistence middleware and reducer, reading the input file, compiling),
/// without the process start, so that a profiler that cannot run the `sagarun` binary itself
/// still sees the end-to-end path.
enum CommandWorkloads {
    static let everySelectPut = Workload(
        name: "sagarun-every-select-put",
        summary: "every-select-put through `sagarun run --virtual-time --memory --input` (in process)",
        defaultCount: 1_000_000
    ) { n in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sagabench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sagaPath = folder.appendingPathComponent("bench.saga").path
        let inputPath = folder.appendingPathComponent("input.jsonl").path
        try everySelectPutSource.write(toFile: sagaPath, atomically: false, encoding: .utf8)
        let line = #"{"type":"request"}"# + "\n"
        try String(repeating: line, count: n).write(toFile: inputPath, atomically: false, encoding: .utf8)
        let io = QuietIO()
        var status: Int32 = -1
        let seconds = blockingTime {
            let arguments = ["run", "--virtual-time", "--memory", "--input", inputPath, sagaPath]
            status = await SagaRunTool.main(arguments, io: io)
        }
        guard status == 0 else { throw BenchError.failed("sagarun run exited with \(status): \(io.errors)") }
        return Measurement(count: n, seconds: seconds, unit: "actions")
    }
}

/// A `ToolIO` that drops the transcript and keeps error text for the failure message.
final class QuietIO: ToolIO {
    private(set) var errors = ""
    let runOutput: RunOutput = NullOutput()
    var errorIsTerminal: Bool { false }
    var outputIsTerminal: Bool { false }
    func out(_ text: String) {}
    func err(_ text: String) { errors += text }
}
