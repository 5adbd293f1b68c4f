import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM stop a run as its end would.
///
/// The root sagas are cancelled and their `finally` blocks run, the final state is printed,
/// and `sagarun` exits with 128 + the signal (the signal's default action ended the process
/// where it stood).
@Suite struct SignalStopTests {
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)),
        arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalStopsTheRunCleanly(signal: Int32, code: Int32) throws {
        let program = """
            state { ticks: 0 }
            reduce "tick" as t { state.ticks = state.ticks + 1 }
            saga main {
              log "ready"
              try {
                loop { put "tick"; delay 10ms }
              } finally {
                log "finally, cancelled: \\(cancelled)"
              }
            }
            """
        try Self.withRunStarted(program) { child in
            #expect(child.stop(with: signal) == code, "\(child.standardError)")
            let lines = child.completeLines
            #expect(lines.first == "ready")
            #expect(lines.dropFirst().first == "finally, cancelled: true", "\(lines)")
            #expect(lines.last?.hasPrefix(#"state {"ticks":"#) == true, "\(lines)")
        }
    }

    /// A `finally` block that a signal runs may wait for its saves' acknowledgements and for a
    /// delay, as on a `cancel`: the run ends once the block has ended.
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)))
    func aFinallyBlockThatASignalRunsSavesAndWaits() throws {
        let program = """
            saga main {
              log "ready"
              try { loop { delay 10ms } } finally {
                put "persistence/save" { entity: "notes", element: { id: "flush-1" } }
                take "persistence/saved"
                put "persistence/save" { entity: "notes", element: { id: "flush-2" } }
                take "persistence/saved"
                delay 10ms
                log "flushed both"
              }
            }
            """
        try Self.withRunStarted(program) { child in
            #expect(child.stop(with: SIGINT) == 130, "\(child.standardError)")
            let lines = child.completeLines
            #expect(lines.dropFirst().first == "flushed both", "\(lines)")
            #expect(lines.last?.contains(#""persist":{"status":"succeeded"}"#) == true, "\(lines)")
        }
    }

    /// A saga that feeds itself actions for ever, and one in an endless loop without an effect,
    /// still stop on a signal, cleanly; a `finally` block that never ends never lets the run
    /// stop, and a second signal ends the process as the signal's default action does.
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)))
    func aBusyRunStopsOnASignalAndASecondSignalEndsIt() throws {
        let sagarun = try #require(SagarunBinary.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feeding = """
            saga main {
              log "ready"
              try {
                every "x" as a { put "x" { n: a.n + 1 } }
                put "x" { n: 0 }
                take "never"
              } finally {
                log "finally, cancelled: \\(cancelled)"
              }
            }
            """
        let spinning = """
            saga main {
              log "ready"
              var i = 0
              try { loop { i = i + 1 } } finally { log "finally, cancelled: \\(cancelled)" }
            }
            """
        let stuck = """
            saga main {
              log "ready"
              var i = 0
              try { loop { delay 10ms } } finally { loop { i = i + 1 } }
            }
            """
        try feeding.write(toFile: folder + "/feeding.saga", atomically: true, encoding: .utf8)
        try spinning.write(toFile: folder + "/spinning.saga", atomically: true, encoding: .utf8)
        try stuck.write(toFile: folder + "/stuck.saga", atomically: true, encoding: .utf8)
        let run = { (name: String, options: [String]) in
            ChildProcess(
                executable: "/usr/bin/env",
                arguments: ["ASAN_OPTIONS=detect_leaks=0", sagarun, "run", folder + "/" + name] + options)
        }
        let fed = run("feeding.saga", ["--max-turns-without-input", "1000000000000"])
        try fed.start()
        #expect(fed.waitForFirstLine(timeout: .seconds(30)))
        #expect(fed.stop(with: SIGINT) == 130, "\(fed.standardError)")
        #expect(fed.completeLines == ["ready", "finally, cancelled: true"], "\(fed.standardError)")

        let spinner = run("spinning.saga", ["--max-steps", "100000000000000"])
        try spinner.start()
        #expect(spinner.waitForFirstLine(timeout: .seconds(30)))
        #expect(spinner.stop(with: SIGTERM) == 143, "\(spinner.standardError)")
        #expect(spinner.completeLines == ["ready", "finally, cancelled: true"], "\(spinner.standardError)")

        let spun = run("stuck.saga", ["--max-steps", "100000000000000"])
        try spun.start()
        #expect(spun.waitForFirstLine(timeout: .seconds(30)))
        spun.send(SIGINT)
        // The first is heard (and said so) before the second is sent: two signals sent at
        // once may reach the process as one.
        for _ in 0..<1500 where !spun.standardError.contains("sagarun: stopping") { usleep(20_000) }
        #expect(spun.standardError.contains("sagarun: stopping (a second signal ends it at once)"))
        // From another process: one process's two signals at once are one stop (below).
        #expect(try spun.stop(with: SIGINT, fromAnotherProcess: ()) == nil)
        #expect(spun.exitDescription == "signal \(SIGINT)", "\(spun.standardError)")
    }

    /// Two signals at once from one process, as `timeout -s INT` sends them (to its command,
    /// then the command's process group), are one stop: the run still ends cleanly.
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)))
    func twoSignalsAtOnceFromOneProcessAreOneStop() throws {
        let program = """
            saga main {
              log "ready"
              try { loop { delay 10ms } } finally {
                var i = 0
                while i < 2000000 { i = i + 1 }
                log "finally, cancelled: \\(cancelled)"
              }
            }
            """
        try Self.withRunStarted(program) { child in
            child.send(SIGINT)
            // The second while the first's stop runs the finally block's loop (sent together,
            // the two may reach the process as one).
            for _ in 0..<1500 where !child.standardError.contains("sagarun: stopping") { usleep(2_000) }
            #expect(child.stop(with: SIGINT) == 130, "\(child.standardError)")
            #expect(child.completeLines == ["ready", "finally, cancelled: true", "state {}"], "\(child.standardError)")
        }
    }

    /// Writes `program` to a new folder (removed at the end) and runs `sagarun run --memory
    /// --print-state` on it, handing the child to `body` once it printed its first line.
    ///
    /// Through env, which becomes sagarun (the same process, so the signal reaches it):
    /// sagarun keeps its program until it exits, on purpose, which a sanitized build's leak
    /// check would take for a leak, changing the exit code.
    private static func withRunStarted(_ program: String, _ body: (ChildProcess) throws -> Void) throws {
        let sagarun = try #require(SagarunBinary.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try program.write(toFile: folder + "/main.saga", atomically: true, encoding: .utf8)
        let child = ChildProcess(
            executable: "/usr/bin/env",
            arguments: [
                "ASAN_OPTIONS=detect_leaks=0", sagarun, "run", folder + "/main.saga", "--memory", "--print-state",
            ])
        try child.start()
        #expect(child.waitForFirstLine(timeout: .seconds(30)))
        try body(child)
    }

    /// On the virtual clock, a run waiting for an input line that has not come, or for a
    /// host process's answer, stops on a signal as any run does.
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)),
        arguments: ["input", "host"])
    func aSignalStopsAVirtualRunWaitingOutside(waitingFor: String) throws {
        let sagarun = try #require(SagarunBinary.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let program = """
            extern func api.never()
            saga main {
              log "ready"
              try {
                if \(waitingFor == "host") { call api.never() } else { take "never" }
              } finally {
                log "finally, cancelled: \\(cancelled)"
              }
            }
            """
        try program.write(toFile: folder + "/main.saga", atomically: true, encoding: .utf8)
        // A pipe with a writer that writes nothing: reading it waits.
        let fifo = folder + "/input"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let outside = waitingFor == "host" ? ["--host", "api=sleep 600"] : ["--input", fifo]
        let child = ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["ASAN_OPTIONS=detect_leaks=0", sagarun, "run", folder + "/main.saga", "--virtual-time"]
                + outside)
        try child.start()
        #expect(child.waitForFirstLine(timeout: .seconds(30)))
        let exit = child.stop(with: SIGTERM)
        #expect(exit == 143, "\(child.standardError)")
        #expect(child.completeLines == ["ready", "finally, cancelled: true"], "\(child.standardError)")
    }
}
