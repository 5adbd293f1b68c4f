import Foundation
import SagaCore
import SagaLanguage
@_spi(Testing) import SagaRuntime
import Testing

/// A traced run takes the short cuts an untraced one does, and records what the watchers'
/// statements record when they run as queued: each body's start (a `fork` flow to the body's
/// track, a body that runs in its watcher's turn included) and the `take` or `join` the
/// watcher then waits on.
@Suite struct TracedWatcherTests {
    /// The program's transcript, and the trace file's text.
    private func traced(_ source: String, input: [String], shortCuts: Bool) async -> (lines: [String], trace: String)? {
        guard let program = Frontend().compile(source: source, path: "test.saga").program else {
            Issue.record("does not compile")
            return nil
        }
        var options = Interpreter.Options(virtualTime: true)
        options.shortCuts = shortCuts
        let output = BufferedOutput()
        let interpreter = Interpreter(program: program, options: options, output: output)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("short-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        interpreter.tracer = ChromeTrace(path: path)
        _ = await interpreter.run(input: InputSource(lines: input))
        #expect(interpreter.tracer?.close() == nil)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no trace written")
            return nil
        }
        return (output.lines, text)
    }

    private static let actions = (1...4).map { #"{"type":"a","n":\#($0),"at":\#($0 * 10)}"# }

    /// Bodies that log (run in the watcher's turn), select, or wait (run as tasks), under each
    /// watcher: the trace is the one the statements as written make.
    @Test(arguments: [
        #"every "a" as a { log "every \(a.n)" }"#,
        #"every "a" as a { let s = select state; log "s \(a.n)" }"#,
        #"every "a" as a { delay 5; log "late \(a.n)" }"#,
        #"latest "a" as a { log "latest \(a.n)" }"#,
        #"latest "a" as a { delay 15; log "latest \(a.n)" }"#,
        #"latest "a" as a { delay 5; log "latest \(a.n)" }"#,
        #"leading "a" as a { log "leading \(a.n)" }"#,
        #"leading "a" as a { delay 15; log "leading \(a.n)" }"#,
    ])
    func aTracedWatcherRecordsWhatItsStatementsRecord(watcher: String) async throws {
        let source = "saga main { \(watcher) }"
        let short = try #require(await traced(source, input: Self.actions, shortCuts: true))
        let written = try #require(await traced(source, input: Self.actions, shortCuts: false))
        #expect(short.lines == written.lines)
        #expect(!short.lines.isEmpty)
        #expect(short.trace == written.trace)
        #expect(short.trace.contains(#""name":"take""#))
        #expect(short.trace.contains(#""name":"fork""#))
    }

    /// A call made in a compiled loop's code is traced once, with its arguments, as the call
    /// as written is traced.
    @Test func aCallMadeInALoopsCodeIsTracedAsWritten() async throws {
        let source = """
            func pick(a, b) { return a + b }
            saga main { var i = 0; while i < 3 { i = call pick(i, 1) } }
            """
        let code = try #require(await traced(source, input: [], shortCuts: true))
        let written = try #require(await traced(source, input: [], shortCuts: false))
        #expect(code.trace == written.trace)
        #expect(code.trace.components(separatedBy: #""name":"call""#).count == 4)
        #expect(code.trace.contains(#""args":[2,1]"#))
    }
}
