import Foundation
import SagaCommandLine

/// Workloads of the host library, against a real server: the one at `SAGABENCH_HTTP_URL`
/// (`Scripts/http-compare.py` starts one, and times Node's `fetch` against it beside this).
enum HostWorkloads {
    /// How many sagas call the server at once.
    static let concurrency = 100

    /// The saga: `tasks` forked tasks, each calling `http.get(url)` `each` times in turn.
    static let source = """
        saga main {
          let a = call args()
          let url = a[0]
          let each = int(a[1])
          var forked = []
          for t in range(int(a[2])) {
            let w = fork {
              for i in range(each) {
                let r = call http.get(url)
                if r.status != 200 { throw "status \\(r.status)" }
              }
            }
            forked = forked + [w]
          }
          join forked
        }
        """

    static let httpGet = Workload(
        name: "http-get",
        summary: "100 sagas calling http.get on the server at SAGABENCH_HTTP_URL at once, in real time",
        defaultCount: 10_000
    ) { n in
        guard let url = ProcessInfo.processInfo.environment["SAGABENCH_HTTP_URL"] else {
            throw BenchError.failed("set SAGABENCH_HTTP_URL to a server's URL (Scripts/http-compare.py starts one)")
        }
        let each = max(n / concurrency, 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sagabench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sagaPath = folder.appendingPathComponent("http.saga").path
        try source.write(toFile: sagaPath, atomically: false, encoding: .utf8)
        let io = QuietIO()
        var status: Int32 = -1
        let seconds = blockingTime {
            let arguments = ["run", sagaPath, "--allow-net", "--", url, String(each), String(concurrency)]
            status = await SagaRunTool.main(arguments, io: io)
        }
        guard status == 0 else { throw BenchError.failed("sagarun run exited with \(status): \(io.errors)") }
        return Measurement(count: each * concurrency, seconds: seconds, unit: "requests")
    }
}
