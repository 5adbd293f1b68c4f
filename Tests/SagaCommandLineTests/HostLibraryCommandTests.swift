import Foundation
import Testing

/// The host library through `sagarun`: permission flags, the script's arguments, what `check`
/// says a script needs, and `--record` giving mocks that replay the run.
@Suite struct HostLibraryCommandTests {
    /// A folder with `script.saga` holding `source`, removed by `body`'s end.
    func withScript(_ source: String, _ body: (String, String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostcli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/script.saga"
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        try await body(folder, script)
    }

    static let copy = """
        saga main {
          let a = call args()
          let text = call file.read(a[0])
          call file.write(a[1], text + "!")
          log "copied \\(len(text)) characters"
        }
        """

    /// Without `--allow-…`, the call fails with a PermissionError naming the flag; with it,
    /// the script runs, its arguments after `--`.
    @Test func permissionsAndArguments() async throws {
        try await withScript(Self.copy) { folder, script in
            try "hello".write(toFile: folder + "/in.txt", atomically: true, encoding: .utf8)
            let denied = await runSagarun(["run", script, "--", folder + "/in.txt", folder + "/out.txt"])
            #expect(denied.code == 1)
            #expect(denied.err.contains("needs --allow-read"), "\(denied.err)")
            let ran = await runSagarun([
                "run", script, "--allow-read=\(folder)/in.txt", "--allow-write=\(folder)",
                "--", folder + "/in.txt", folder + "/out.txt",
            ])
            #expect(ran.code == 0, "\(ran.err)")
            #expect(ran.out == "copied 5 characters\n")
            #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "hello!")
            let usage = await runSagarun(["run", script, "--allow-read="])
            #expect(usage.code == 64)
            let spaced = await runSagarun(["run", script, "--allow-write", folder])
            #expect(spaced.code == 64)
            #expect(spaced.err.contains("a list goes after '=', as in --allow-write=PATH"), "\(spaced.err)")
        }
    }

    /// `check` says which flags a script's calls need.
    @Test func checkListsThePermissionsAScriptNeeds() async throws {
        try await withScript(Self.copy) { _, script in
            let text = await runSagarun(["check", script])
            #expect(text.code == 0)
            #expect(text.out == "\(script): needs --allow-read (file.read), --allow-write (file.write)\n")
            let json = await runSagarun(["check", "--format", "json", script])
            #expect(json.out.contains(#""permissions":{"\#(script)":["--allow-read","--allow-write"]}"#), "\(json.out)")
        }
    }

    /// `--record` writes the calls as mocks; with them, the run needs no permission and
    /// prints the same.
    @Test func recordedCallsReplayAsMocks() async throws {
        try await withScript(Self.copy) { folder, script in
            try "abc".write(toFile: folder + "/in.txt", atomically: true, encoding: .utf8)
            let mocks = folder + "/script.mocks.jsonl"
            let arguments = ["--", folder + "/in.txt", folder + "/out.txt"]
            let recorded = await runSagarun(["run", script, "--allow-all", "--record", mocks] + arguments)
            #expect(recorded.code == 0, "\(recorded.err)")
            let lines = try String(contentsOfFile: mocks, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.first?.contains(#""call":"args""#) == true)
            try FileManager.default.removeItem(atPath: folder + "/out.txt")
            let replayed = await runSagarun(["run", script, "--mocks", mocks] + arguments)
            #expect(replayed.code == 0, "\(replayed.err)")
            #expect(replayed.out == recorded.out)
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.txt"))
        }
    }

    /// The Python that runs the tests' host.
    static func python() throws -> String {
        try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "the test's host is a Python script")
    }

    /// A host of the tests' own, in Python: `api.add` sums, `api.fail` throws, `api.slow` never
    /// answers (and logs the cancel it gets), `api.garbage` answers garbage, `api.die` exits.
    static let pythonHost = """
        import sys, json
        for line in sys.stdin:
            m = json.loads(line)
            if m.get("cancel"):
                print("cancelled", m["id"], file=sys.stderr, flush=True)
                continue
            c = m["call"]
            if c == "api.add": print(json.dumps({"id": m["id"], "result": sum(m["args"])}), flush=True)
            elif c == "api.fail": print(json.dumps({"id": m["id"], "error": {"kind": "Nope", "message": "no"}}), flush=True)
            elif c == "api.garbage": print("garbage", flush=True)
            elif c == "api.die": sys.exit(3)
        """

    /// `--host NAME=COMMAND`: calls go to the process as JSON lines and come back as results
    /// or errors; a cancelled call sends a cancel; a process that answers garbage, or exits,
    /// fails its calls with a HostError that says so; a name given two processes is refused.
    @Test func aHostProcessServesExternFunctions() async throws {
        let python = try Self.python()
        let source = """
            extern func api.add(a, b)
            extern func api.fail()
            extern func api.slow()
            extern func api.garbage()
            extern func api.die()

            saga main {
              let s = call api.add(2, 3)
              log s
              try { call api.fail() } catch e { log e }
              let r = race { x: call api.slow(), t: delay 100ms }
              log r
              try { call api.garbage() } catch e { log e.kind }
              try { call api.add(1, 1) } catch e { log e.message }
            }
            """
        try await withScript(source) { folder, script in
            try Self.pythonHost.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let run = await runSagarun(["run", script, "--host", "api=\(python) \(folder)/host.py"])
            #expect(run.code == 0, "\(run.err)")
            #expect(
                run.out == """
                    5
                    {"kind":"Nope","message":"no"}
                    {"t":true}
                    HostError
                    the host process 'api' (\(python) \(folder)/host.py) answered with a line that cannot be read as JSON (1:1: unexpected 'g'; expected a value): garbage

                    """)
            let dies = "extern func api.die()\nsaga main { call api.die() }\n"
            try dies.write(toFile: script, atomically: true, encoding: .utf8)
            let died = await runSagarun(["run", script, "--host=api=\(python) \(folder)/host.py"])
            #expect(died.code == 1)
            #expect(died.err.contains("the host process 'api'"), "\(died.err)")
            let usage = await runSagarun(["run", script, "--host", "api"])
            #expect(usage.code == 64)
            // Two processes for one name: refused, rather than one of them silently kept.
            let twice = await runSagarun(["run", script, "--host", "api=true", "--host", "api=false"])
            #expect(twice.code == 64)
            #expect(twice.err.contains("--host names 'api' twice"), "\(twice.err)")
            // A name that serves none of the program's extern functions is warned of.
            let misnamed = await runSagarun(["run", script, "--host", "apj=true"])
            #expect(
                misnamed.err.contains(
                    "warning: --host apj serves no extern function of the program (none is named apj or apj.…); "
                        + "did you mean 'api'?"), "\(misnamed.err)")
        }
    }

    /// A host's answers are lines however its writes cut them: a long one in many pieces,
    /// two in one write.
    @Test func aHostProcessAnswerIsALineHoweverItIsWritten() async throws {
        let python = try Self.python()
        let host = """
            import sys, json
            pairs = []
            for line in sys.stdin:
                m = json.loads(line)
                if m.get("cancel"): continue
                if m["call"] == "api.big":
                    text = json.dumps({"id": m["id"], "result": "x" * m["args"][0]}) + "\\n"
                    for i in range(0, len(text), 1000):
                        sys.stdout.write(text[i:i + 1000])
                        sys.stdout.flush()
                elif m["call"] == "api.pair":
                    pairs.append(m["id"])
                    if len(pairs) == 2:
                        sys.stdout.write("".join(json.dumps({"id": i, "result": "p"}) + "\\n" for i in pairs))
                        sys.stdout.flush()
            """
        let source = """
            extern func api.big(n)
            extern func api.pair()
            saga main {
              let b = call api.big(300000)
              log len(b)
              let p = all [call api.pair(), call api.pair()]
              log p
            }
            """
        try await withScript(source) { folder, script in
            try host.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let run = await runSagarun(["run", script, "--host", "api=\(python) \(folder)/host.py"])
            #expect(run.code == 0, "\(run.err)")
            #expect(run.out == "300000\n[\"p\",\"p\"]\n")
        }
    }

    /// A process that writes the call back (`cat`) has not answered it: the message says what
    /// an answer needs.
    @Test func aLineWithoutAResultOrAnErrorIsNotAnAnswerAndSaysWhy() async throws {
        let source = "extern func api.add(a, b)\nsaga main { let s = call api.add(2, 3); log s }\n"
        try await withScript(source) { _, script in
            let run = await runSagarun(["run", script, "--host", "api=cat"])
            #expect(run.code == 1, "\(run.err)")
            #expect(
                run.err.contains(
                    #"answered with a line that is not an answer to a call in flight (an answer has a "result" or an "error")"#
                ), "\(run.err)")
        }
    }

    /// Every host error has a string `message`, and an answer has a result or an error.
    ///
    /// An error without a string message gets one (its JSON) and the kind HostError, as a
    /// mock's does; an answer with both a result and an error is no answer.
    @Test func aHostErrorAlwaysHasAMessageAndAnAnswerIsAResultOrAnError() async throws {
        let python = try Self.python()
        let host = """
            import sys, json
            for line in sys.stdin:
                m = json.loads(line)
                if m["call"] == "api.coded": print(json.dumps({"id": m["id"], "error": {"code": 5}}), flush=True)
                else: print(json.dumps({"id": m["id"], "result": 1, "error": "and an error"}), flush=True)
            """
        let source = """
            extern func api.coded()
            extern func api.both()
            saga main {
              try { call api.coded() } catch e { log e }
              let b = call api.both()
            }
            """
        try await withScript(source) { folder, script in
            try host.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let run = await runSagarun(["run", script, "--host", "api=\(python) \(folder)/host.py"])
            #expect(run.code == 1, "\(run.err)")
            #expect(run.out == #"{"code":5,"kind":"HostError","message":"{\"code\":5}"}"# + "\n", "\(run.err)")
            #expect(run.err.contains(#"(an answer has a "result" or an "error", not both)"#), "\(run.err)")
        }
    }

    /// A run stopped by `--max-run-steps` while a forked call is about to start its process
    /// leaves no process behind.
    @Test func aRunStoppedByItsStepLimitLeavesNoProcess() async throws {
        let token = "sagas-leak-\(UInt32.random(in: 0 ... .max))"
        let source = """
            saga main {
              fork { call sh("sleep 30; : \(token)") }
              var i = 0
              while i < 1000 { i = i + 1 }
            }
            """
        try await withScript(source) { _, script in
            let run = await runSagarun(["run", script, "--allow-run=sh", "--max-run-steps", "50"])
            #expect(run.code == 1 && run.err.contains("took more than 50 steps"), "\(run.err)")
            // A process killed as the run ended may take a moment to go (its /proc entry then
            // shows no command line): one still there after 5 s was left running.
            var left: [String] = []
            for _ in 0..<500 {
                let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
                left = folders.filter { Self.commandLine(ofProcess: $0).contains(token) }
                if left.isEmpty { break }
                usleep(10_000)
            }
            #expect(left.isEmpty, "processes left: \(left)")
        }
    }

    /// On the virtual clock a real call that takes time wins any race with a delay: the run
    /// says so, once, unless the function is mocked.
    @Test func realCallsOnTheVirtualClockAreNoted() async throws {
        let source =
            #"saga main { let r = race { done: call sh("echo hi"), timeout: delay 100ms }; log has(r, "done") }"#
        try await withScript(source) { folder, script in
            let real = await runSagarun(["run", script, "--allow-run=sh", "--virtual-time"])
            #expect(real.out == "true\n")
            #expect(
                real.err == "note: on the virtual clock (--virtual-time) the clock waits for sh: "
                    + "a race of a call with a delay is won by the call, however long it takes\n")
            try #"{"call":"sh","result":{"status":0,"stdout":"hi\n","stderr":""}}"#.write(
                toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
            let mocked = await runSagarun(["run", script, "--virtual-time", "--mocks", folder + "/m.jsonl"])
            #expect(mocked.err == "", "\(mocked.err)")
            let realTime = await runSagarun(["run", script, "--allow-run=sh"])
            #expect(realTime.err == "", "\(realTime.err)")
        }
    }

    /// `--allow-net` given a URL allows its host and port; a path that is no URL is refused.
    @Test func allowNetTakesTheHostOfAURL() async throws {
        let source = """
            saga main { try { let r = call http.get("http://127.0.0.1:1/x"); log r.status } catch e { log e.kind } }
            """
        try await withScript(source) { _, script in
            let allowed = await runSagarun(["run", script, "--allow-net=http://127.0.0.1:1/"])
            #expect(allowed.out == "HttpError\n", "connection refused, not a PermissionError: \(allowed.err)")
            let refused = await runSagarun(["run", script, "--allow-net=localhost/api"])
            #expect(refused.code == 64 && refused.err.contains("--allow-net takes hosts"), "\(refused.err)")
        }
    }

    /// The command line of the process `pid` (a folder of `/proc`), read with `read(2)`:
    /// Foundation's reading of a `/proc` file (size 0) keeps its buffer, which LeakSanitizer
    /// reports.
    static func commandLine(ofProcess pid: String) -> String {
        let fd = open("/proc/\(pid)/cmdline", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    /// A function both mocked and served by `--host` is answered by the mock, with a warning.
    @Test func mocksThatShadowAHostProcessAreSaidTo() async throws {
        let source = "extern func api.x()\nsaga main { let v = call api.x(); log v }\n"
        try await withScript(source) { folder, script in
            try #"{"call":"api.x","result":1}"#.write(toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
            let run = await runSagarun(["run", script, "--mocks", folder + "/m.jsonl", "--host", "api=cat"])
            #expect(run.code == 0 && run.out == "1\n", "\(run.err)")
            #expect(run.err == "warning: --mocks answers api.x, which --host api serves too: the mocks do\n")
        }
    }

    /// An answer line past 16 MiB (as an input line is limited) breaks the host, saying so,
    /// rather than filling memory.
    @Test func aHostAnswerLineIsLimitedAsAnInputLine() async throws {
        let python = try Self.python()
        let host = """
            import sys
            for line in sys.stdin:
                sys.stdout.write("x" * (17 << 20))
                sys.stdout.flush()
            """
        let source = "extern func api.flood()\nsaga main {\n  try { call api.flood() } catch e { log e.message }\n}\n"
        try await withScript(source) { folder, script in
            try host.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let run = await runSagarun(["run", script, "--host", "api=\(python) \(folder)/host.py"])
            #expect(run.code == 0, "\(run.err)")
            #expect(run.out.contains("answered with a line longer than 16 MiB"), "\(run.out.prefix(300))")
        }
    }

    /// A call a race's timeout beat is recorded as pending, and replays as a call that never
    /// answers, so the timeout wins again, on the virtual clock too.
    @Test func aTimedOutCallRecordsAndReplaysAsPending() async throws {
        let python = try Self.python()
        let source = """
            extern func api.add(a, b)
            extern func api.slow()

            saga main {
              let s = call api.add(1, 2)
              let r = race { x: call api.slow(), t: delay 100ms "late" }
              log "\\(s) \\(r)"
            }
            """
        try await withScript(source) { folder, script in
            try Self.pythonHost.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let mocks = folder + "/script.mocks.jsonl"
            let recorded = await runSagarun(
                ["run", script, "--host", "api=\(python) \(folder)/host.py", "--record", mocks])
            #expect(recorded.code == 0, "\(recorded.err)")
            #expect(recorded.out == #"3 {"t":"late"}"# + "\n")
            let lines = try String(contentsOfFile: mocks, encoding: .utf8)
            #expect(lines.contains(#"{"args":[],"call":"api.slow","pending":true}"#), "\(lines)")
            let replayed = await runSagarun(["run", script, "--mocks", mocks, "--virtual-time"])
            #expect(replayed.code == 0, "\(replayed.err)")
            #expect(replayed.out == recorded.out)
        }
    }

    /// A process that serves event channels: it opens one as a call's answer and feeds it with
    /// lines; its close ends the saga's `take`; the saga's close reaches the process; a process
    /// that exits with a channel open fails the `take` once the channel is empty; `--record`
    /// writes the call as a `channel` line.
    @Test func aHostProcessFeedsEventChannels() async throws {
        let python = try Self.python()
        let host = """
            import json, sys
            closed = []
            for line in sys.stdin:
                m = json.loads(line)
                if "call" not in m:
                    closed.append(m["channel"])
                    continue
                if m["call"] == "feed.open":
                    name = m["args"][0]
                    print(json.dumps({"id": m["id"], "channel": name}), flush=True)
                    for i in range(3): print(json.dumps({"channel": name, "value": i}), flush=True)
                    if name == "short": print(json.dumps({"channel": name, "close": True}), flush=True)
                    if name == "crash": sys.exit(3)
                else:
                    print(json.dumps({"id": m["id"], "result": closed}), flush=True)
            """
        let source = """
            extern func feed.open(name)
            extern func feed.closed()

            func drain(ch) {
              var got = []
              try {
                loop {
                  let n = take ch
                  got = got + [n]
                }
              } finally {
                log "drained \\(got)"
              }
            }

            saga main {
              let short = call feed.open("short")
              call drain(short)
              let long = call feed.open("long")
              let a = take long
              close long
              let c = call feed.closed()
              log "took \\(a); the host saw closed: \\(c)"
              let crash = call feed.open("crash")
              try { call drain(crash) } catch e { log "\\(e.kind): \\(e.message)" }
            }
            """
        try await withScript(source) { folder, script in
            try host.write(toFile: folder + "/host.py", atomically: true, encoding: .utf8)
            let mocks = folder + "/recorded.jsonl"
            let run = await runSagarun(
                ["run", script, "--host", "feed=\(python) \(folder)/host.py", "--record", mocks])
            #expect(run.code == 0, "\(run.err)")
            #expect(
                run.out == "drained [0,1,2]\n" + #"took 0; the host saw closed: ["long"]"# + "\n"
                    + "drained [0,1,2]\nHostError: the host process 'feed' (\(python) \(folder)/host.py) "
                    + "exited with status 3\n")
            let lines = try String(contentsOfFile: mocks, encoding: .utf8)
            #expect(lines.contains(#"{"args":["short"],"call":"feed.open","channel":"short"}"#), "\(lines)")
        }
    }
}
