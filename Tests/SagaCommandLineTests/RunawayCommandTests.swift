import Foundation
import SagaCommandLine
import SagaTestSupport
import Testing

/// `sagarun run` ends programs that would run for ever, or take all memory, by default.
@Suite struct RunawayCommandTests {
    /// A program that only feeds itself meets the default limit of turns on its own, or the
    /// one given.
    @Test func aSelfFeedingProgramStops() async throws {
        await ExitCodeTests.withFiles(["t.saga": "saga s {\n  every \"x\" as a { put \"x\" }\n  put \"x\"\n}\n"]) {
            dir in
            let script = dir.appendingPathComponent("t.saga").path
            let given = await runSagarun(["run", script, "--virtual-time", "--max-turns-without-input", "10000"])
            #expect(given.code == 1)
            #expect(given.err.contains("the run took 10000 turns with no input"), "\(given.err)")
            let bad = await runSagarun(["run", script, "--max-turns-without-input", "0"])
            #expect(bad.code == 64)
        }
    }

    /// A loop that saves and waits for each acknowledgement feeds itself too: the store's
    /// answers are not news from outside, in a file store or in memory, on either clock.
    @Test(arguments: [["--virtual-time", "--memory"], ["--virtual-time", "--store"], ["--memory"]])
    func aLoopOfSavesStops(flags: [String]) async throws {
        let source = """
            saga saver {
              var i = 0
              loop {
                put "persistence/save" { entity: "ticks", element: { id: i % 5 } }
                take "persistence/saved"
                i = i + 1
              }
            }

            """
        await ExitCodeTests.withFiles(["t.saga": source]) { dir in
            var arguments = ["run", dir.appendingPathComponent("t.saga").path, "--max-turns-without-input", "1000"]
            arguments += flags
            if flags.last == "--store" { arguments.append(dir.appendingPathComponent("store").path) }
            let run = await runSagarun(arguments)
            #expect(run.code == 1)
            #expect(run.err.contains("the run took 1000 turns with no input"), "\(run.err)")
        }
    }

    /// `--max-memory` takes MiB; past it the run stops with exit code 1.
    @Test func aRunPastMaxMemoryStops() async throws {
        let resident = try #require(residentMiB())
        await ExitCodeTests.withFiles(["t.saga": "saga s { loop { fork { take \"x\" } } }\n"]) { dir in
            let script = dir.appendingPathComponent("t.saga").path
            let run = await runSagarun(["run", script, "--virtual-time", "--max-memory", "\(resident + 96)"])
            #expect(run.code == 1)
            #expect(run.err.contains("MiB of memory; it was stopped; raise the limit with --max-memory"), "\(run.err)")
        }
    }
}
