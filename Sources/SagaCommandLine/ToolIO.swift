import Foundation
import SagaLanguage
import SagaPersistence
import SagaRuntime
import Synchronization

/// Where a command writes.
///
/// `sagarun` uses the process's standard output and error; tests capture both in memory.
package protocol ToolIO: AnyObject {
    /// The run's output sink: the transcript and error reports.
    var runOutput: RunOutput { get }
    /// Writes text to standard output as is.
    func out(_ text: String)
    /// Writes text to standard error as is.
    func err(_ text: String)
    /// Whether standard error is a terminal that wants colour (not when `NO_COLOR` is set).
    var errorIsTerminal: Bool { get }
    /// Whether standard output is a terminal (for progress lines).
    var outputIsTerminal: Bool { get }
    /// The system calls of the file store (tests inject faults here); ``FileSystem/posix`` by default.
    var storeFileSystem: FileSystem { get }
    /// Hands over what a command compiled, to be freed when the command is done with it (the
    /// default), or never, when the process is about to exit anyway.
    ///
    /// A compiled program is a tree of a heap object per node: freeing the tree of a large
    /// file takes a large share of `sagarun check`'s time, for memory the exit gives back at
    /// once.
    /// `sagarun` keeps it (as clang's driver does its AST, with `-disable-free`); tests,
    /// which run many commands in one process, let it go.
    func keepUntilExit(_ value: any Sendable)
    /// Compiles the file at `path` with `frontend`, and hands the result to
    /// ``keepUntilExit(_:)``.
    ///
    /// `sagarun` lets glibc's heap grow in large steps while a large file compiles
    /// (`HeapGrowth`): a setting of the whole process, which tests leave alone.
    func compile(_ path: String, with frontend: Frontend) -> CompileResult
    /// The host functions a run's sagas may call besides those its mocks give: none for
    /// `sagarun`; an app's own when its tests run golden files (``GoldenSuite``).
    var hostFunctions: HostFunctions { get }
    /// The memory budget of `sagarun run` when `--max-memory` is not given, in MiB: 1,024 for
    /// `sagarun`; none for tests, which run many commands in one process, whose resident set
    /// is not one run's.
    var defaultMaxMemoryMiB: Int? { get }
    /// Takes what a run's mocks reported once it is over (unexpected calls, lines no call
    /// took), including what the run already reported as a saga's failure: a golden test
    /// fails on any of them.
    func noteMockProblems(_ problems: [String])
    /// Takes note that a run was stopped by a limit (`--max-run-steps`,
    /// `--max-turns-without-input`, memory) rather than ending: a golden test fails on it.
    func noteStoppedByLimit()
}

extension ToolIO {
    /// The real system calls.
    package var storeFileSystem: FileSystem { .posix }
    /// No host functions.
    package var hostFunctions: HostFunctions { HostFunctions() }
    /// No memory budget unless the command line gives one.
    package var defaultMaxMemoryMiB: Int? { nil }
    /// Lets the value go as soon as the command drops it.
    package func keepUntilExit(_ value: any Sendable) {}
    /// Nothing to keep: the run has written what the user needs.
    package func noteMockProblems(_ problems: [String]) {}
    /// Nothing to keep: the run has said why it stopped.
    package func noteStoppedByLimit() {}
    /// Compiles as a library caller would, then hands the result over.
    package func compile(_ path: String, with frontend: Frontend) -> CompileResult {
        let result = frontend.compile(path: path)
        keepUntilExit(result)
        return result
    }
}

/// The process's standard output and error.
package final class ProcessIO: ToolIO {
    private let standard = StandardOutput()

    /// Creates the process's IO.
    package init() {}

    /// A budget a laptop survives (see ``ToolIO/defaultMaxMemoryMiB``).
    package var defaultMaxMemoryMiB: Int? { 1024 }

    package var runOutput: RunOutput { standard }
    /// Why standard output lost text, if a write to it failed (`strerror`'s words).
    package var outputFailure: String? { standard.outputFailure }
    package func keepUntilExit(_ value: any Sendable) { keptUntilExit.withLock { $0.append(value) } }
    package func compile(_ path: String, with frontend: Frontend) -> CompileResult {
        let result = HeapGrowth.whileCompiling(path) { frontend.compile(path: path) }
        keepUntilExit(result)
        return result
    }
    package var errorIsTerminal: Bool { isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }
    package var outputIsTerminal: Bool { isatty(1) == 1 }
    package func out(_ text: String) { write(1, text) }
    package func err(_ text: String) { write(2, text) }

    private func write(_ fd: Int32, _ text: String) {
        guard !text.isEmpty else { return }
        if fd == 1 {
            standard.transcriptRaw(text)
        } else {
            standard.errorRaw(text)
        }
    }
}

/// What ``ProcessIO`` keeps until the process exits: a global, so that nothing frees it on
/// the way out (the ``ProcessIO`` itself is released before `exit` is called).
private let keptUntilExit = Mutex<[any Sendable]>([])

/// Captures everything in memory.
package final class CapturedIO: ToolIO {
    /// Everything written to standard output (transcript lines included).
    package private(set) var stdout = ""
    /// Everything written to standard error (error reports included).
    package private(set) var stderr = ""

    /// The file store's system calls: set it to inject faults into the commands' stores.
    package var storeFileSystem: FileSystem = .posix
    /// The host functions the commands' runs may call.
    package var hostFunctions = HostFunctions()
    /// What the last run's mocks reported (see ``ToolIO/noteMockProblems(_:)``).
    package private(set) var mockProblems: [String] = []
    /// Whether the last run was stopped by a limit (see ``ToolIO/noteStoppedByLimit()``).
    package private(set) var runStoppedByLimit = false
    /// The most transcript bytes kept: past it the transcript is full (``RunOutput/isFull``),
    /// and the run stops.
    package var transcriptLimit = Int.max
    /// Whether the transcript passed ``transcriptLimit`` (the lines past it were dropped).
    package private(set) var transcriptIsFull = false

    /// Creates an empty capture.
    package init() {}

    package var runOutput: RunOutput { Sink(owner: self) }
    package var errorIsTerminal: Bool { false }
    package var outputIsTerminal: Bool { false }
    package func out(_ text: String) { stdout += text }
    package func err(_ text: String) { stderr += text }
    package func noteMockProblems(_ problems: [String]) { mockProblems = problems }
    package func noteStoppedByLimit() { runStoppedByLimit = true }

    private final class Sink: RunOutput {
        let owner: CapturedIO
        init(owner: CapturedIO) { self.owner = owner }
        func transcript(_ line: String) {
            guard !owner.transcriptIsFull else { return }
            guard owner.stdout.utf8.count + line.utf8.count < owner.transcriptLimit else {
                owner.transcriptIsFull = true
                return
            }
            owner.stdout += line + "\n"
        }
        func error(_ text: String) { owner.stderr += text + "\n" }
        var isFull: Bool { owner.transcriptIsFull }
    }
}
