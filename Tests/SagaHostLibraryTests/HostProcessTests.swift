import Foundation
import SagaCore
import SagaHostLibrary
import SagaRuntime
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `exec` and `sh`, running real processes.
@Suite struct HostProcessTests {
    /// A process's status, output, input, environment and folder.
    @Test func aProcessGivesItsStatusAndOutput() async throws {
        try await withFolder { folder in
            let host = HostLibrary(permissions: .all).functions
            #expect(
                try await call(host, "exec", [["echo", "a  b"]])
                    == ["status": 0, "stdout": "a  b\n", "stderr": ""])
            #expect(
                try await call(host, "sh", ["echo out; echo err >&2; exit 3"])
                    == ["status": 3, "stdout": "out\n", "stderr": "err\n"])
            let piped = try await call(host, "exec", [["cat"], ["stdin": "fed"]])
            #expect(piped["stdout"] == "fed")
            let env = try await call(host, "sh", ["printf %s \"$SAGA_TEST\"", ["env": ["SAGA_TEST": "set"]]])
            #expect(env["stdout"] == "set")
            let cwd = try await call(host, "exec", [["pwd"], ["cwd": .string(folder)]])
            guard case .string(let printed) = cwd["stdout"] else {
                Issue.record("pwd gave \(cwd)")
                return
            }
            #expect(printed.hasSuffix((folder as NSString).lastPathComponent + "\n"))
        }
    }

    /// Only the commands allowed run; `sh` needs `sh`.
    @Test func onlyAllowedCommandsRun() async throws {
        var permissions = HostPermissions()
        permissions.run = .only(["echo"])
        let host = HostLibrary(permissions: permissions).functions
        #expect(try await call(host, "exec", [["echo", "ok"]])["status"] == 0)
        #expect(try await call(host, "exec", [["/bin/echo", "ok"]])["status"] == 0)
        let denied = await failure(host, "exec", [["ls"]])
        #expect(denied?.kind == "PermissionError")
        #expect(denied?.message.contains("--allow-run=ls") == true)
        #expect(await failure(host, "sh", ["echo"])?.message.contains("--allow-run=sh") == true)
    }

    /// A listed command is the program its name finds on the run's own PATH: another program
    /// of that name, by path or through the options' PATH, is refused or not run, and the
    /// loader's variables cannot be set for it.
    @Test func aListedCommandIsThatProgramOnly() async throws {
        try await withFolder { folder in
            let evil = folder + "/ls"
            try "#!/bin/sh\necho EVIL\n".write(toFile: evil, atomically: true, encoding: .utf8)
            _ = chmod(evil, 0o755)
            var permissions = HostPermissions()
            permissions.run = .only(["ls"])
            let host = HostLibrary(permissions: permissions).functions
            #expect(await failure(host, "exec", [[.string(evil)]])?.kind == "PermissionError")
            let throughPath = try await call(host, "exec", [["ls", "/"], ["env": ["PATH": .string(folder)]]])
            guard case .string(let listed) = throughPath["stdout"] else {
                Issue.record("ls gave \(throughPath)")
                return
            }
            #expect(!listed.contains("EVIL"))
            let loader = await failure(host, "exec", [["ls"], ["env": ["LD_PRELOAD": "/tmp/x.so"]]])
            #expect(loader?.kind == "PermissionError")
            #expect(loader?.message.contains("LD_PRELOAD") == true)
        }
    }

    /// A command that does not exist, a bad argument, a timeout and output past the limit are
    /// errors that say so.
    @Test func badCommandsAreClearErrors() async throws {
        let host = HostLibrary(permissions: .all, maxLength: 1000).functions
        let missing = await failure(host, "exec", [["no-such-command-here"]])
        #expect(missing?.kind == "ExecError")
        #expect(missing?.message.contains("no such command 'no-such-command-here'") == true)
        #expect(await failure(host, "exec", ["ls"])?.kind == "TypeError")
        #expect(await failure(host, "exec", [[]])?.kind == "TypeError")
        #expect(await failure(host, "exec", [["ls"], ["cwd": "/no/such/folder"]])?.kind == "ExecError")
        let slow = await failure(host, "exec", [["sleep", "30"], ["timeout": 50]])
        #expect(slow?.kind == "Timeout")
        let loud = await failure(host, "exec", [["yes"]])
        #expect(loud?.kind == "RangeError")
        #expect(loud?.message.contains("--max-length") == true)
    }

    /// A command the run may not run is refused for that, whether it exists or not; only one it
    /// lists is reported missing.
    @Test func aCommandNotAllowedIsAPermissionErrorFoundOrNot() async {
        var permissions = HostPermissions()
        permissions.run = .only(["ls", "no-such-command-here"])
        let host = HostLibrary(permissions: permissions).functions
        #expect(await failure(host, "exec", [["definitely-not-listed"]])?.kind == "PermissionError")
        #expect(await failure(host, "exec", [["cat"]])?.kind == "PermissionError")
        #expect(await failure(host, "exec", [["no-such-command-here"]])?.kind == "ExecError")
    }

    /// The process id `sh` wrote to `file`, once it is there (the process runs in real time).
    private func pid(in file: String) async throws -> Int32 {
        for _ in 0..<1000 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw SagaError(kind: "Test", message: "the child never wrote its pid")
    }

    /// Cancelling the calling task terminates the child: its process is gone once the call
    /// has ended.
    @Test func cancellingTheCallTerminatesTheChild() async throws {
        try await withFolder { folder in
            let host = HostLibrary(permissions: .all).functions
            let file = folder + "/pid"
            let running = Task { try await call(host, "sh", [.string("echo $$ > \(file); exec sleep 30")]) }
            let child = try await pid(in: file)
            #expect(kill(child, 0) == 0)
            running.cancel()
            _ = await running.result
            #expect(kill(child, 0) == -1 && errno == ESRCH)
        }
    }

    /// At the end of a run, every child still running is killed.
    @Test func noChildOutlivesTheRun() async throws {
        try await withFolder { folder in
            let library = HostLibrary(permissions: .all)
            let file = folder + "/pid"
            let running = Task {
                try await call(library.functions, "sh", [.string("echo $$ > \(file); exec sleep 30")])
            }
            let child = try await pid(in: file)
            library.terminateChildren()
            let result = try await running.value
            #expect(result["status"] == .int(128 + Int(SIGKILL)))
            #expect(kill(child, 0) == -1)
        }
    }

    /// A call that starts its child after the run is over (a call the run's end cancelled before
    /// its process started) starts none: the run's end leaves no process behind.
    @Test func noChildStartsAfterTheRun() async throws {
        let library = HostLibrary(permissions: .all)
        library.terminateChildren()
        let error = await failure(library.functions, "sh", [.string("sleep 30")])
        #expect(error?.message.contains("the run is over") == true, "\(String(describing: error))")
    }

    /// A child starts with no signal blocked or ignored, whatever this process's threads
    /// block: a SIGTERM ends it.
    @Test func aChildProcessIsEndedBySignalsAsAnyOther() async throws {
        let host = HostLibrary(permissions: .all).functions
        let killed = try await call(host, "sh", ["kill -TERM $$; echo survived"])
        #expect(killed["status"] == .int(128 + Int(SIGTERM)))
        #expect(killed["stdout"] == "")
    }

    /// A cancelled call ends the processes its process started too: a shell's child (which
    /// `sh -c` forks rather than becomes) does not outlive the call.
    @Test func aCancelledCallEndsTheProcessesItsProcessStarted() async throws {
        let host = HostLibrary(permissions: .all).functions
        let marker = "47.\(Int.random(in: 100_000...999_999))"
        let running = Task { try await call(host, "sh", [.string("sleep \(marker); echo done")]) }
        #expect(await Self.waitUntil { !Self.processes(running: "sleep", marker).isEmpty })
        running.cancel()
        _ = try? await running.value
        #expect(await Self.waitUntil { Self.processes(running: "sleep", marker).isEmpty })
    }

    /// Whether `condition` came true within 20 seconds, looked at every 20 ms.
    static func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// The processes whose command line is exactly these words.
    static func processes(running words: String...) -> [String] {
        let wanted = words.joined(separator: "\u{0}")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber) else { return false }
            let line = String(decoding: Self.contents(of: "/proc/\(entry)/cmdline"), as: UTF8.self)
            return line == wanted || line == wanted + "\u{0}"
        }
    }

    /// A small file's bytes, read with `read` (`/proc` files report no size).
    static func contents(of path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }
}
