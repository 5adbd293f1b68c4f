import Foundation
import SagaCore
import SagaRuntime

extension HostLibrary {
    /// Registers `exec` and `sh`, which run a process and give `{status, stdout, stderr}`.
    ///
    /// `exec(["cmd", "arg", …], {stdin, env, cwd, timeout})` runs a program with no shell;
    /// `sh("…", {…})` runs a line of `/bin/sh`. Each gives its result once the process has
    /// exited; a status that is not 0 is a value, not an error.
    ///
    /// `env` adds variables to the run's environment; `timeout` is in milliseconds. Cancelling
    /// the calling task terminates the process (SIGTERM, then SIGKILL).
    static func registerProcesses(_ host: inout HostFunctions, _ context: Context) {
        host.register("exec") { args in
            try expect(args, 1, 2, "exec")
            guard case .list(let items) = args[0], !items.isEmpty else {
                throw failure(
                    "TypeError", "exec", "the command must be a non-empty list of strings, like [\"ls\", \"-l\"]")
            }
            var argv: [String] = []
            for item in items {
                guard case .string(let s) = item else {
                    throw failure("TypeError", "exec", "the command's items must be strings, got \(item.kindName)")
                }
                argv.append(s)
            }
            return try await run(argv, try options(args, 1, "exec"), context, "exec")
        }
        host.register("sh") { args in
            try expect(args, 1, 2, "sh")
            let line = try string(args, 0, "sh", "the command line")
            return try await run(["/bin/sh", "-c", line], try options(args, 1, "sh"), context, "sh", name: "sh")
        }
    }

    /// Runs `argv` under the options of `exec`; `name` is the command the permission names.
    private static func run(
        _ argv: [String], _ options: Record, _ context: Context, _ function: String, name: String? = nil
    ) async throws(SagaError) -> Value {
        let command = name ?? argv[0]
        // Found on the run's own PATH, not one the options set, and compared as a real path.
        let runPath = ProcessInfo.processInfo.environment["PATH"]
        guard let found = ChildProcess.resolve(argv[0], path: runPath) else {
            // A command the run may not run is refused for that, found or not: only one it
            // allows (all of them, or this name listed) is missing.
            switch context.permissions.run {
            case .all: break
            case .only(let listed) where listed.contains(command): break
            default: throw denied("running '\(command)'", flag: "--allow-run", value: command)
            }
            throw failure("ExecError", function, "no such command '\(argv[0])'")
        }
        let executable = HostPermissions.real(found)
        guard context.permissions.allowsRun(executable: executable, path: runPath) else {
            throw denied("running '\(command)'", flag: "--allow-run", value: command)
        }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in try strings(options, "env", function) {
            // What the dynamic loader reads would let a listed command run any code.
            if name.hasPrefix("LD_"), context.permissions.run != .all {
                throw SagaError(
                    kind: "PermissionError",
                    message:
                        "setting \(name) for '\(command)' needs --allow-run without a list; the run allows only some commands"
                )
            }
            environment[name] = value
        }
        var folder: String?
        switch options["cwd"] {
        case nil, .null?: break
        case .string(let path)?:
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw failure("ExecError", function, "no such folder '\(path)' (cwd)")
            }
            folder = path
        case let other?: throw failure("TypeError", function, "cwd must be a string, got \(other.kindName)")
        }
        var stdin: Data?
        switch options["stdin"] {
        case nil, .null?: break
        case .string(let text)?: stdin = Data(text.utf8)
        case let other?: stdin = Data((other.canonicalJSON + "\n").utf8)
        }
        let timeout = try timeout(options, function)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await ChildProcess.run(
                executable: executable, arguments: argv, stdin: stdin, environment: environment,
                folder: folder, timeout: timeout, maxLength: context.maxLength, in: context.children)
        } catch {
            throw failure("ExecError", function, "cannot run '\(argv[0])': \(error.message)")
        }
        if outcome.timedOut, let timeout {
            throw failure("Timeout", function, "'\(command)' did not end within \(timeout) ms and was terminated")
        }
        if outcome.overflowed {
            throw failure(
                "RangeError", function,
                "'\(command)' wrote more than --max-length \(context.maxLength) bytes and was terminated")
        }
        return [
            "status": .int(Int(outcome.status)),
            "stdout": .string(String(decoding: outcome.stdout, as: UTF8.self)),
            "stderr": .string(String(decoding: outcome.stderr, as: UTF8.self)),
        ]
    }
}
