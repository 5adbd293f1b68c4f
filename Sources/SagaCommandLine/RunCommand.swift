import Foundation
import SagaCore
import SagaHostLibrary
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore

/// `sagarun run FILE [options]`.
package enum RunCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.run.parse(args, io) else { return .success }
        // The arguments after `--` are the script's (`args()`).
        let files = parsed.positionals.dropLast(parsed.afterDashes.count)
        guard files.count == 1, let path = files.first else {
            // `--allow-read PATH` takes PATH for a second file: the list goes after '='.
            let bare = parsed.repeated.filter { $0.value.contains(nil) }.keys.sorted()
            let hint =
                bare.isEmpty
                ? "put the script's arguments after '--'" : "a list goes after '=', as in \(bare[0])=PATH,…"
            throw UsageError(
                files.isEmpty
                    ? "missing the saga file to run" : "run takes one saga file; got \(files.count) (\(hint))",
                command: "run")
        }
        let permissions = try Self.permissions(parsed)
        if parsed.has("--memory"), parsed.options["--store"] != nil {
            throw UsageError("--memory and --store cannot be used together", command: "run")
        }
        for option in ["--store", "--input", "--mocks", "--record", "--trace"]
        where parsed.options[option]?.isEmpty == true {
            let what = option == "--store" ? "a folder" : "a file"
            throw UsageError("\(option) needs \(what); an empty path names none", command: "run")
        }
        let (compiled, code) = SagaRunTool.compile(path, io)
        guard let program = compiled else { return code }
        if program.sagas.isEmpty, program.reducers.isEmpty {
            // A file of functions, which other files import, runs nothing: the warning says so.
            io.err("warning: \(path) declares no saga and no reducer, so nothing runs\n")
        }

        var input: InputSource?
        if let inputPath = parsed.options["--input"] {
            if inputPath == "-" {
                input = InputSource.standardInput()
            } else {
                guard let file = InputSource.file(inputPath) else {
                    io.err("error: cannot read input file '\(inputPath)': \(TextFile.whyUnreadable(inputPath))\n")
                    return .noInput
                }
                input = file
            }
        }
        let folder = parsed.options["--store"] ?? ".sagastore"
        let store: any ElementStore =
            parsed.has("--memory")
            ? MemoryStore() : DeferredFileStore(directory: folder, options: .init(fileSystem: io.storeFileSystem))
        var options = Interpreter.Options(
            virtualTime: parsed.has("--virtual-time"), printActions: parsed.has("--print-actions"),
            printState: parsed.has("--print-state"), timestamps: parsed.has("--timestamps"))
        let limits: [(String, WritableKeyPath<Interpreter.Options, Int>)] = [
            ("--max-steps", \.maxSteps), ("--max-call-depth", \.maxCallDepth), ("--max-tasks", \.maxTasks),
            ("--max-buffer", \.maxBuffer), ("--max-length", \.maxLength),
        ]
        for (flag, field) in limits {
            if let n = try Self.positiveNumber(parsed, flag) { options[keyPath: field] = n }
        }
        options.yieldAfterSteps = try Self.positiveNumber(parsed, "--yield-after")
        options.maxRunSteps = try Self.positiveNumber(parsed, "--max-run-steps")
        options.maxTurnsWithoutInput =
            try Self.positiveNumber(parsed, "--max-turns-without-input") ?? Self.defaultMaxTurnsWithoutInput
        if let memory = try Self.positiveNumber(parsed, "--max-memory") ?? io.defaultMaxMemoryMiB {
            options.maxMemory = memory < Int.max >> 20 ? memory << 20 : Int.max
        }
        var mocks: HostMocks?
        if let mocksPath = parsed.options["--mocks"] {
            guard let text = TextFile.read(mocksPath) else {
                io.err("error: cannot read the mocks file '\(mocksPath)': \(TextFile.whyUnreadable(mocksPath))\n")
                return .noInput
            }
            do {
                mocks = try HostMocks(jsonl: text, source: mocksPath)
            } catch {
                // Where, as an input file's error says it.
                io.err("\(mocksPath):\(error.line):\(error.column): error: \(error.message)\n")
                return .dataError
            }
        }
        var recorder: HostCallRecorder?
        if let recordPath = parsed.options["--record"] {
            if let why = TextFile.canWrite(recordPath) {
                io.err("error: cannot write the mocks file '\(recordPath)': \(why)\n")
                return .ioError
            }
            recorder = HostCallRecorder()
        }
        let library = HostLibrary(permissions: permissions, arguments: parsed.afterDashes, maxLength: options.maxLength)
        var served = HostFunctions()
        var hostProcesses: [HostProcess] = []
        for spec in parsed.repeated["--host"] ?? [] {
            guard let spec, let eq = spec.firstIndex(of: "="), eq != spec.startIndex,
                spec.index(after: eq) != spec.endIndex
            else {
                throw UsageError("--host takes NAME=COMMAND, as in --host api='python3 api.py'", command: "run")
            }
            let name = String(spec[..<eq])
            // Two processes for one name: which one serves its calls would be a silent choice.
            if hostProcesses.contains(where: { $0.name == name }) {
                throw UsageError("--host names '\(name)' twice; give each name one command", command: "run")
            }
            let process = HostProcess(name: name, command: String(spec[spec.index(after: eq)...]))
            let externs = program.externs.map(\.name)
            if !externs.contains(where: process.serves) {
                let hint = Suggestions.didYouMean(name, in: Array(Set(externs.map { String($0.prefix { $0 != "." }) })))
                io.err(
                    "warning: --host \(name) serves no extern function of the program (none is named \(name) or \(name).…)\(hint)\n"
                )
            }
            process.register(externs, in: &served)
            hostProcesses.append(process)
        }
        defer { for process in hostProcesses { process.stop() } }
        // Mocks answer before a host process: say so where both could serve a function.
        if let mocked = mocks?.names {
            for process in hostProcesses {
                let both = program.externs.map(\.name).filter { process.serves($0) && mocked.contains($0) }
                if !both.isEmpty {
                    io.err(
                        "warning: --mocks answers \(both.joined(separator: ", ")), which --host \(process.name) "
                            + "serves too: the mocks do\n")
                }
            }
        }
        let provided = library.functions.merging(io.hostFunctions).merging(served)
        if options.virtualTime {
            Self.noteRealCallsOnTheVirtualClock(program, served: served, mocked: mocks?.names ?? [], io)
        }
        var host = provided.merging(
            mocks?.functions(failingCallsOf: program.externs.map(\.name).filter { provided[$0] == nil }))
        if let recorder { host = recorder.recording(host) }
        let deferred = store as? DeferredFileStore
        let (interpreter, _) = Self.interpreter(
            program, options: options, store: store, output: io.runOutput, host: host,
            before: deferred.map { [Self.opener($0, io: io)] } ?? [])
        if let tracePath = parsed.options["--trace"] {
            guard let trace = ChromeTrace(path: tracePath) else {
                io.err("error: cannot write the trace file '\(tracePath)'\n")
                await store.close()
                return .ioError
            }
            interpreter.tracer = trace
        }
        let signals = SignalStop.start(stopping: interpreter.stopRequest)
        let status = await interpreter.run(input: input)
        if input == nil, Self.standardInputHoldsData() {
            io.err("note: standard input holds lines the run did not read; pass --input - to read them\n")
        }
        for warning in input?.warnings ?? [] { io.err(warning.described(in: input?.name) + "\n") }
        signals?.end()
        // No child process outlives the run.
        library.terminateChildren()
        if let recorder, let recordPath = parsed.options["--record"] {
            if let why = TextFile.write(recorder.jsonl(), to: recordPath) {
                io.err("error: cannot write the mocks file '\(recordPath)': \(why)\n")
                await store.close()
                return .ioError
            }
        }
        if let traceFailure = interpreter.tracer?.close(), let tracePath = parsed.options["--trace"] {
            io.err("error: cannot write the trace file '\(tracePath)': \(traceFailure)\n")
            await store.close()
            return .ioError
        }
        // A run stopped by a limit did not make the calls it would have made after.
        let mockProblems =
            mocks?.problems(callees: program.hostCallees, unusedLines: !interpreter.stoppedByLimit) ?? []
        io.noteMockProblems(mockProblems)
        if interpreter.stoppedByLimit { io.noteStoppedByLimit() }
        // An unexpected call that failed its saga is already reported, with the saga's stack.
        let reported = Set(interpreter.reportedErrorMessages)
        for problem in mockProblems where !reported.contains(problem) { io.err("error: mocks: \(problem)\n") }
        // A store that could not be opened at the first persistence action, or failed under
        // the run (a full disk, a failed sync), refused the writes from then on; the sagas saw
        // `…Failed` actions, and the run must not look fine.
        let (openFailure, storeFailure) = (deferred?.openFailure, deferred?.failure)
        // Cut silently, a log that something other than a crash cut short would lose records
        // unremarked: the run says what it cut.
        if let torn = deferred?.tornTailBytes, torn > 0 {
            let kept = deferred?.tornTailKeeper.map { " and kept in \($0)" } ?? " (zeros)"
            io.err(
                "warning: the store '\(folder)' ended in \(torn) bytes that are no whole record, cut when it was "
                    + "opened\(kept): a write a crash interrupted, a damaged last record, or a log cut short "
                    + "('sagarun store verify' tells more)\n")
        }
        await store.close()
        // Reported when it happened, by the opener.
        if openFailure != nil { return .ioError }
        if let storeFailure {
            io.err("error: the store '\(folder)' failed: \(storeFailure.description)\n")
            return .ioError
        }
        if let signal = signals?.signal { return signal == SIGTERM ? .terminated : .interrupted }
        switch status {
        case .success: return mockProblems.isEmpty ? .success : .failure
        case .sagaFailed: return .failure
        case .malformedInput: return .dataError
        }
    }

    /// The value of a numeric option such as `--max-steps`, if given; it must be a whole
    /// number above zero.
    private static func positiveNumber(_ parsed: Arguments, _ flag: String) throws(UsageError) -> Int? {
        guard let text = parsed.options[flag] else { return nil }
        guard let n = Int(text), n > 0 else {
            // Digits alone that do not fit: the number is too large, not malformed.
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                text.contains(where: { $0 != "0" })
            {
                throw UsageError("\(flag) is too large: at most \(Int.max), not '\(text)'", command: "run")
            }
            throw UsageError("\(flag) needs a positive whole number, not '\(text)'", command: "run")
        }
        return n
    }

    /// The host library's permissions the `--allow-…` flags give.
    static func permissions(_ parsed: Arguments) throws(UsageError) -> HostPermissions {
        if parsed.has("--allow-all") { return .all }
        var permissions = HostPermissions()
        let fields: [(String, WritableKeyPath<HostPermissions, HostPermissions.Grant>)] = [
            ("--allow-net", \.net), ("--allow-run", \.run), ("--allow-read", \.read), ("--allow-write", \.write),
            ("--allow-env", \.env),
        ]
        for (flag, field) in fields {
            for value in parsed.repeated[flag] ?? [] {
                guard let value else {
                    permissions[keyPath: field] = .all
                    continue
                }
                var items = value.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
                guard !items.isEmpty else {
                    throw UsageError("\(flag)= needs a list, or no '=' for all", command: "run")
                }
                if flag == "--allow-net" { items = try items.map(Self.netHost) }
                permissions[keyPath: field] = permissions[keyPath: field].adding(.only(Set(items)))
            }
        }
        return permissions
    }

    /// An `--allow-net` entry as the host library matches it, `host` or `host:port`: a URL
    /// given instead (`http://127.0.0.1:8765/api`) is its host and port, which it allows;
    /// anything else with a `/` is refused rather than allow nothing.
    static func netHost(_ item: String) throws(UsageError) -> String {
        guard item.contains("/") else { return item }
        guard let url = URLComponents(string: item), url.scheme != nil, let host = url.host, !host.isEmpty else {
            throw UsageError(
                "--allow-net takes hosts (example.com, 127.0.0.1:8765), not '\(item)'", command: "run")
        }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Says that the virtual clock waits for real calls that take time (HTTP, processes, a
    /// `--host` process), so that a `race` with a `delay` never times one out: a program that
    /// makes such calls unmocked on the virtual clock has lost its timeouts, unseen.
    private static func noteRealCallsOnTheVirtualClock(
        _ program: Program, served: HostFunctions, mocked: Set<String>, _ io: ToolIO
    ) {
        let slow = program.hostCallees.filter { name in
            !mocked.contains(name)
                && (name.hasPrefix("http.") || name == "exec" || name == "sh" || served.names.contains(name))
        }
        guard !slow.isEmpty else { return }
        io.err(
            "note: on the virtual clock (--virtual-time) the clock waits for \(slow.sorted().joined(separator: ", ")): "
                + "a race of a call with a delay is won by the call, however long it takes\n")
    }

    /// The turns a run may take on its own by default (`--max-turns-without-input`): a program
    /// that only feeds itself stops after about a second.
    package static let defaultMaxTurnsWithoutInput = 10_000_000

    /// An interpreter for `program` with the persistence layer over `store` attached, as
    /// `sagarun run` makes it; `before` goes ahead of the persistence middleware.
    package static func interpreter(
        _ program: Program, options: Interpreter.Options, store: any ElementStore, output: RunOutput,
        host: HostFunctions = HostFunctions(), before: [Middleware<Value, Value>] = []
    ) -> (Interpreter, any ElementStore) {
        let persistence = ValuePersistence(store: store)
        let interpreter = Interpreter(
            program: program, options: options, host: host, middleware: before + [persistence.middleware],
            reducers: [persistence.reduce], output: output)
        persistence.scheduler = interpreter.asyncWork
        return (interpreter, store)
    }

    /// The middleware that opens `store` at the first `persistence/*` action, on the
    /// interpreter's thread before the persistence middleware sees it, and reports a failure
    /// to open at once (the run goes on, its persistence actions failing, and ends with 74).
    static func opener(_ store: DeferredFileStore, io: ToolIO) -> Middleware<Value, Value> {
        Middleware(actingOn: ValuePersistence.mayAct(on:)) { _, next in
            var tried = false
            return { action in
                if !tried, case .record(let r) = action, case .string(let type)? = r["type"],
                    type.hasPrefix("persistence/")
                {
                    tried = true
                    if let error = store.open() {
                        io.err(
                            "error: cannot open the store '\(store.directory)': \(error.description)\n"
                                + StoreCommand.recoveryHint(error, directory: store.directory))
                    }
                }
                next(action)
            }
        }
    }

    /// Whether standard input, a pipe or a file rather than a terminal, has bytes waiting: input
    /// meant for the run, which reads it only with `--input -`.
    private static func standardInputHoldsData() -> Bool {
        guard isatty(STDIN_FILENO) == 0 else { return false }
        var waiting: Int32 = 0
        return ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) == 0 && waiting > 0
    }
}
