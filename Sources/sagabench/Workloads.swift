import Foundation
import SagaCommandLine
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime
import SagaStore

/// Output that keeps nothing: benchmarks measure the work, not the printing.
final class NullOutput: RunOutput {
    var lines = 0
    func transcript(_ line: String) { lines += 1 }
    func error(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
}

enum BenchError: Error, CustomStringConvertible {
    case compile(String)
    case failed(String)
    var description: String {
        switch self {
        case .compile(let s): return "compile error: \(s)"
        case .failed(let s): return s
        }
    }
}

/// Compiles and runs `source` on the virtual clock with `inputLines` copies of `line` read from
/// a temporary file; returns the seconds the run took.
func runProgram(_ source: String, inputLines: Int, line: String = "", tracePath: String? = nil) throws -> Double {
    // Repeated, not appended line by line: building the input counts towards the whole
    // process's cost, so it is kept cheap next to the work measured.
    try runProgram(
        source, input: inputLines > 0 ? String(repeating: line + "\n", count: inputLines) : nil, tracePath: tracePath)
}

/// The program of take-put-loop (and of its traced twin, take-put-traced).
let takePutSource = """
    saga main {
      loop { let a = take "ping"; put "pong" }
    }
    """

/// Whether programs run as `sagarun run --memory` runs them (`--like-sagarun`): with the limits
/// every run has by default (turns without input, a memory budget) and the persistence layer
/// over an in-memory store.
let likeSagarun = CommandLine.arguments.contains("--like-sagarun")

/// The options a workload's program runs with: the virtual clock, and the default limits of
/// `sagarun run` when ``likeSagarun``.
let runOptions: Interpreter.Options = {
    var options = Interpreter.Options(virtualTime: true)
    if likeSagarun {
        options.maxTurnsWithoutInput = RunCommand.defaultMaxTurnsWithoutInput
        options.maxMemory = (ProcessIO().defaultMaxMemoryMiB ?? 1024) << 20
    }
    return options
}()

/// An interpreter for `program`, bare or as `sagarun run --memory` makes it (``likeSagarun``).
func benchInterpreter(_ program: Program, output: RunOutput) -> Interpreter {
    guard likeSagarun else { return Interpreter(program: program, options: runOptions, output: output) }
    return RunCommand.interpreter(program, options: runOptions, store: MemoryStore(), output: output).0
}

/// Runs `source` over `input` (JSON lines, or none) with the virtual clock, traced into
/// `tracePath` if one is given (as `sagarun run --trace` traces); the seconds it took.
func runProgram(_ source: String, input: String?, tracePath: String? = nil) throws -> Double {
    let compiled = Frontend().compile(source: source, path: "bench.saga")
    guard let program = compiled.program else { throw BenchError.compile(compiled.renderedDiagnostics) }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sagabench-\(UUID().uuidString).jsonl")
        .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let input { try input.write(toFile: path, atomically: false, encoding: .utf8) }
    let interpreter = benchInterpreter(program, output: NullOutput())
    if let tracePath {
        guard let trace = ChromeTrace(path: tracePath) else { throw BenchError.failed("cannot write \(tracePath)") }
        interpreter.tracer = trace
    }
    let inputSource = input != nil ? InputSource.file(path) : nil
    var status = RunStatus.success
    var traceFailure: String?
    let seconds = blockingTime {
        status = await interpreter.run(input: inputSource)
        traceFailure = interpreter.tracer?.close()
    }
    guard status == .success else { throw BenchError.failed("the program failed: \(status)") }
    if let traceFailure { throw BenchError.failed("the trace was not written: \(traceFailure)") }
    return seconds
}

/// Dispatches `n` actions to a store with an adding reducer, `middleware` and one subscriber.
func storeDispatch(_ n: Int, through middleware: Middleware<Int, Int>) throws -> Measurement {
    let store = Store(initialState: 0, reducer: { (s: inout Int, a: Int) in s &+= a }, middleware: [middleware])
    var seen = 0
    store.subscribe { _ in seen &+= 1 }
    let seconds = time { for _ in 0..<n { store.dispatch(1) } }
    guard store.state == n, seen == n else { throw BenchError.failed("store lost actions") }
    return Measurement(count: n, seconds: seconds, unit: "actions")
}

/// The program of every-select-put (and of its `sagarun` twin, `sagarun-every-select-put`).
let everySelectPutSource = selectPutSource(watcher: "every")

/// One `watcher` (`every`, `latest`, `leading`) doing `select` + `put` per `request` action.
func selectPutSource(watcher: String) -> String {
    """
    state { count: 0 }
    reduce "add" as a { state.count = state.count + a.by }
    saga main {
      \(watcher) "request" as r {
        let c = select state.count
        put "add" { by: 1 }
      }
    }
    """
}

/// every-select-put with another watcher: redux-saga's `takeLatest` and `takeLeading` rows.
func watcherSelectPut(_ watcher: String, like redux: String) -> Workload {
    Workload(
        name: "\(watcher)-select-put",
        summary: "one `\(watcher)` watcher (\(redux)) doing select + put per outside action",
        defaultCount: 1_000_000
    ) { n in
        let seconds = try runProgram(selectPutSource(watcher: watcher), inputLines: n, line: #"{"type":"request"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    }
}

let workloads: [Workload] = [
    Workload(
        name: "every-select-put", summary: "one `every` watcher doing select + put per outside action",
        defaultCount: 1_000_000
    ) { n in
        let seconds = try runProgram(everySelectPutSource, inputLines: n, line: #"{"type":"request"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "fork-loop-select-put",
        summary: "every-select-put written out: `loop { take; fork { select + put } }` per outside action",
        defaultCount: 1_000_000
    ) { n in
        // The loop a redux-saga user writes by hand (`while (true) { take; fork }`), which an
        // `every` watcher stands for.
        let source = """
            state { count: 0 }
            reduce "add" as a { state.count = state.count + a.by }
            saga main {
              loop {
                let r = take "request"
                fork {
                  let c = select state.count
                  put "add" { by: 1 }
                }
              }
            }
            """
        let seconds = try runProgram(source, inputLines: n, line: #"{"type":"request"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "every-select-put-payload",
        summary: "every-select-put with a payload in each input line (read by the JSON reader)",
        defaultCount: 1_000_000
    ) { n in
        // The lines of every-select-put are `{"type":"request"}`, which skip the JSON reader
        // (`TypeOnlyLines`); this row keeps the cost of a line that does not in view.
        let seconds = try runProgram(everySelectPutSource, inputLines: n, line: #"{"type":"request","n":1}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "every-try-put", summary: "one `every` watcher whose body puts inside `try` … `catch` per outside action",
        defaultCount: 1_000_000
    ) { n in
        // A body with a `try` runs as a task, its `try` from code of its own.
        let source = """
            state { count: 0 }
            reduce "add" as a { state.count = state.count + a.by }
            saga main {
              every "request" as r {
                try { put "add" { by: 1 } } catch e { log "failed \\(e.message)" }
              }
            }
            """
        let seconds = try runProgram(source, inputLines: n, line: #"{"type":"request"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    watcherSelectPut("latest", like: "takeLatest"),
    watcherSelectPut("leading", like: "takeLeading"),
    Workload(
        name: "wide-state", summary: "a reducer updating one field of a 1,000-field state per outside action",
        defaultCount: 1_000_000
    ) { n in
        // What a reducer costs must not grow with the state: the per-action figure here should
        // match a one-field state's.
        let fields = (0..<1_000).map { "f\($0): 0" }.joined(separator: ", ")
        let source = """
            state { \(fields) }
            reduce "bump" as a { state.f500 = state.f500 + 1 }
            """
        let seconds = try runProgram(source, inputLines: n, line: #"{"type":"bump"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "list-append", summary: "a reducer appending each outside action's item to a list in the state",
        defaultCount: 1_000_000
    ) { n in
        // What an append costs must not grow with the list: copying it (and walking it for its
        // depth) on every action made n appends take time in n².
        let source = """
            state { todos: [] }
            reduce "add" as a { state.todos = state.todos + [a.todo] }
            """
        let seconds = try runProgram(source, inputLines: n, line: #"{"type":"add","todo":{"id":1,"title":"t"}}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "list-append-counted",
        summary: "list-append beside a second statement, so that the reducer keeps an undo log",
        defaultCount: 1_000_000
    ) { n in
        // The undo log of a reducer of two statements notes the list's length rather than
        // holding the old list, which would make the append copy it each action.
        let source = """
            state { todos: [], count: 0 }
            reduce "add" as a {
              state.todos = state.todos + [a.todo]
              state.count = state.count + 1
            }
            """
        let seconds = try runProgram(source, inputLines: n, line: #"{"type":"add","todo":{"id":1,"title":"t"}}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "channel-append",
        summary: "a reducer appending each outside action's message to a list under its channel",
        defaultCount: 1_000_000
    ) { n in
        // Through a path (`state.byChannel[a.ch]`) the append extends the list where it lies,
        // as `state.K = state.K + [x]` does, rather than building a new list each action and
        // walking it for its depth.
        let source = """
            state { byChannel: { general: [], random: [] } }
            reduce "say" as a { state.byChannel[a.ch] = state.byChannel[a.ch] + [a.msg] }
            """
        var input = ""
        input.reserveCapacity(n * 48)
        for i in 0..<n {
            input +=
                i % 2 == 0 ? #"{"type":"say","ch":"general","msg":"hi"}"# : #"{"type":"say","ch":"random","msg":"yo"}"#
            input += "\n"
        }
        let seconds = try runProgram(source, input: input)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "normalized-state",
        summary: "a reducer adding each outside action's user, by a new id in random order, to a record in the state",
        defaultCount: 1_000_000
    ) { n in
        // What adding a key costs must not grow with the record: a record kept as one sorted
        // array moved half its entries for each new key, and 40,000 keys took 12 s.
        let source = """
            state { users: {} }
            reduce "add" as a { state.users[a.id] = a.user }
            """
        // i × a prime past n, mod n: every id once, in a scattered order.
        var input = ""
        input.reserveCapacity(n * 48)
        for i in 0..<n {
            let id = i.multipliedReportingOverflow(by: 1_000_003).partialValue % n
            input += #"{"type":"add","id":"u\#(id)","user":{"name":"n"}}"# + "\n"
        }
        let seconds = try runProgram(source, input: input)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(name: "take-put-loop", summary: "one saga: loop { take; put }", defaultCount: 1_000_000) { n in
        let seconds = try runProgram(takePutSource, inputLines: n, line: #"{"type":"ping"}"#)
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    Workload(
        name: "take-put-traced", summary: "take-put-loop traced (`--trace`) into /dev/null",
        defaultCount: 1_000_000
    ) { n in
        let seconds = try runProgram(takePutSource, inputLines: n, line: #"{"type":"ping"}"#, tracePath: "/dev/null")
        return Measurement(count: n, seconds: seconds, unit: "actions")
    },
    EmbeddedWorkloads.takePut,
    EmbeddedWorkloads.scriptedAndNative,
    CommandWorkloads.everySelectPut,
    HostWorkloads.httpGet,
    Workload(
        name: "store-dispatch", summary: "Store dispatch: reducer + one middleware + one subscriber",
        defaultCount: 10_000_000
    ) { n in
        try storeDispatch(n, through: Middleware<Int, Int> { _, next in { action in next(action) } })
    },
    Workload(
        name: "store-dispatch-tasks",
        summary: "Store dispatch as an app has it: reducer + the task middleware + one subscriber",
        defaultCount: 10_000_000
    ) { n in
        let tasks = TaskMiddleware<Int, Int>(thread: ManualStoreThread()) { _ in nil }
        return try storeDispatch(n, through: tasks.makeMiddleware())
    },
    Workload(
        name: "saga-append",
        summary: "a saga growing its own list with `xs = xs + [i]` and its own string with `s = s + \"x\"`",
        defaultCount: 1_000_000
    ) { n in
        let source = """
            saga main {
              var xs = []
              var s = ""
              for i in range(\(n)) {
                xs = xs + [i]
                s = s + "x"
              }
              if len(xs) != \(n) || len(s) != \(n) { throw "wrong length" }
            }
            """
        let seconds = try runProgram(source, inputLines: 0)
        return Measurement(count: n, seconds: seconds, unit: "appends")
    },
    Workload(name: "call", summary: "`call` of a saga function in a loop", defaultCount: 10_000_000) { n in
        let source = """
            func one() { return 1 }
            saga main {
              var i = 0
              while i < \(n) { let x = call one(); i = i + x }
            }
            """
        let seconds = try runProgram(source, inputLines: 0)
        return Measurement(count: n, seconds: seconds, unit: "calls")
    },
    Workload(
        name: "call-args", summary: "`call` of a saga function with arguments, in a loop with an `if`",
        defaultCount: 10_000_000
    ) { n in
        // `call` with arguments and a branch: the frame made of the arguments and the compiled
        // loop's `if` stay in view (the `call` row's function takes none).
        let source = """
            func add(a, b) { return a + b }
            saga main {
              var i = 0
              var odd = 0
              while i < \(n) {
                i = call add(i, 1)
                if i % 2 == 1 { odd = odd + 1 }
              }
              if odd != \(n - n / 2) { throw "wrong count: \\(odd)" }
            }
            """
        let seconds = try runProgram(source, inputLines: 0)
        return Measurement(count: n, seconds: seconds, unit: "calls")
    },
    Workload(
        name: "race-call",
        summary: "`race` of a `call` and a `delay` in a loop: the call wins in its first turn, the delay never starts",
        defaultCount: 1_000_000
    ) { n in
        try combinatorLoop(n, "race { a: call f(i), b: delay 1s }", adding: "r.a", sum: n * (n - 1) / 2, unit: "races")
    },
    Workload(
        name: "channel-put-take", summary: "`put ch i` then `take ch` in a loop: a channel's buffer filled and emptied",
        defaultCount: 1_000_000
    ) { n in
        let source = """
            saga main {
              let ch = channel
              var s = 0
              for i in range(\(n)) {
                put ch i
                let v = take ch
                s = s + v
              }
              if s != \(n * (n - 1) / 2) { throw "wrong sum: \\(s)" }
            }
            """
        let seconds = try runProgram(source, inputLines: 0)
        return Measurement(count: n, seconds: seconds, unit: "messages")
    },
    Workload(
        name: "all-call", summary: "`all` of two `call`s in a loop: two entries' tasks per all, both run to their end",
        defaultCount: 1_000_000
    ) { n in
        try combinatorLoop(
            n, "all { a: call f(i), b: call f(1) }", adding: "r.a + r.b", sum: n * (n - 1) / 2 + n, unit: "alls")
    },
    Workload(
        name: "fork-wake", summary: "forked tasks blocked on take, then one action wakes them all",
        defaultCount: 1_000_000
    ) { n in
        let source = """
            saga main {
              for i in range(\(n)) { fork { take "go" } }
            }
            """
        let compiled = Frontend().compile(source: source, path: "bench.saga")
        guard let program = compiled.program else { throw BenchError.compile(compiled.renderedDiagnostics) }
        let before = residentBytes()
        var blockedBytes = 0
        let output = NullOutput()
        let interpreter = benchInterpreter(program, output: output)
        let seconds = blockingTime {
            _ = await interpreter.run(input: InputSource(lines: [#"{"type":"go"}"#]))
        }
        blockedBytes = max(0, residentBytes() - before)
        return Measurement(
            count: n, seconds: seconds, unit: "tasks",
            extra: ["peak RSS growth per task (bytes, upper bound)": Double(blockedBytes) / Double(n)])
    },
    Workload(name: "parse-check", summary: "parse and check a generated .saga file", defaultCount: 10_000_000) {
        bytes in
        let source = generatedSource(bytes: bytes)
        let size = source.utf8.count
        var ok = false
        // The figure counts freeing the program too (it is work the caller waits for), and the
        // extra figure shows the rate without it: freeing a tree of a node per allocation is a
        // third of the time, which only a flat tree would save.
        var compileSeconds = 0.0
        let seconds = time {
            let start = ContinuousClock.now
            var result: CompileResult? = Frontend().compile(source: source, path: "big.saga")
            ok = result?.program != nil
            compileSeconds = secondsSince(start)
            result = nil
        }
        guard ok else { throw BenchError.failed("the generated file does not compile") }
        let withoutFreeing = compileSeconds > 0 ? Double(size) / compileSeconds / 1e6 : 0
        return Measurement(
            count: size, seconds: seconds, unit: "bytes",
            extra: ["MB/s parsing and checking alone (without freeing the program)": withoutFreeing])
    },
    Workload(
        name: "check", summary: "parse-check's file checked for its diagnostics alone, as `sagarun check` checks it",
        defaultCount: 10_000_000
    ) { bytes in
        let source = generatedSource(bytes: bytes)
        var ok = false
        let seconds = time {
            let result = Frontend().check(source: source, path: "big.saga")
            ok = !result.hasErrors
        }
        guard ok else { throw BenchError.failed("the generated file does not check") }
        return Measurement(count: source.utf8.count, seconds: seconds, unit: "bytes")
    },
    StoreWorkloads.saveLoop,
    StoreWorkloads.saveMany,
    StoreWorkloads.saveManyWhere,
    StoreWorkloads.reopen,
]

/// parse-check's file: a `state`, then a function and a saga with a watcher, about 207 bytes
/// each, numbered apart, until the text is `bytes` long.
private func generatedSource(bytes: Int) -> String {
    var source = "state { count: 0 }\n"
    var i = 0
    while source.utf8.count < bytes {
        source += """
            func f\(i)(a, b) {
              let x = a + b * 2
              if x > 10 { return x } else { return [x, "s\\(x)", {k: x}] }
            }
            saga s\(i) {
              every "t\(i)/*" as act {
                let r = call f\(i)(act.n, 2)
                put "done" { r: r }
              }
            }

            """
        i += 1
    }
    return source
}

/// `let r = COMBINATOR` `n` times in a loop, `f` a saga function that returns its argument,
/// the `adding` expression of each `r` summed and checked against `sum`: race-call and all-call.
private func combinatorLoop(
    _ n: Int, _ combinator: String, adding: String, sum: Int, unit: String
) throws
    -> Measurement
{
    let source = """
        func f(x) { return x }
        saga main {
          var n = 0
          for i in range(\(n)) {
            let r = \(combinator)
            n = n + \(adding)
          }
          if n != \(sum) { throw "wrong sum: \\(n)" }
        }
        """
    let seconds = try runProgram(source, inputLines: 0)
    return Measurement(count: n, seconds: seconds, unit: unit)
}
