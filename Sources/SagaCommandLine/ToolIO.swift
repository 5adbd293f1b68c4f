import Foundation
import SagaLanguage
import SagaPersistence
import SagaRuntime
import Synchronization

/// Where a command writes. `sagarun` uses the process's standard output and error; tests
/// capture both in memory.
public protocol ToolIO: AnyObject {
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
    /// A compiled program is a tree of a heap object per node: freeing the tree of a 10 MB
    /// file takes a third of `sagarun check`'s time, for memory the exit gives back at once.
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
}

extension ToolIO {
    /// The real system calls.
    public var storeFileSystem: FileSystem { .posix }
    /// No host functions.
    public var hostFunctions: HostFunctions { HostFunctions() }
    /// Lets the value go as soon as the command drops it.
    public func keepUntilExit(_ value: any Sendable) {}
    /// Compiles as a library caller would, then hands the result over.
    public func compile(_ path: String, with frontend: Frontend) -> CompileResult {
        let result = frontend.compile(path: path)
        keepUntilExit(result)
        return result
    }
}

/// The process's standard output and error.
public final class ProcessIO: ToolIO {
    private let standard = StandardOutput()

    /// Creates the process's IO.
    public init() {}

    public var runOutput: RunOutput { standard }
    /// Why standard output lost text, if a write to it failed (`strerror`'s words).
    public var outputFailure: String? { standard.outputFailure }
    public func keepUntilExit(_ value: any Sendable) { keptUntilExit.withLock { $0.append(value) } }
    public func compile(_ path: String, with frontend: Frontend) -> CompileResult {
        let result = HeapGrowth.whileCompiling(path) { frontend.compile(path: path) }
        keepUntilExit(result)
        return result
    }
    public var errorIsTerminal: Bool { isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }
    public var outputIsTerminal: Bool { isatty(1) == 1 }
    public func out(_ text: String) { write(1, text) }
    public func err(_ text: String) { write(2, text) }

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
public final class CapturedIO: ToolIO {
    /// Everything written to standard output (transcript lines included).
    public private(set) var stdout = ""
    /// Everything written to standard error (error reports included).
    public private(set) var stderr = ""

    /// The file store's system calls: set it to inject faults into the commands' stores.
    public var storeFileSystem: FileSystem = .posix
    /// The host functions the commands' runs may call.
    public var hostFunctions = HostFunctions()

    /// Creates an empty capture.
    public init() {}

    public var runOutput: RunOutput { Sink(owner: self) }
    public var errorIsTerminal: Bool { false }
    public var outputIsTerminal: Bool { false }
    public func out(_ text: String) { stdout += text }
    public func err(_ text: String) { stderr += text }

    private final class Sink: RunOutput {
        let owner: CapturedIO
        init(owner: CapturedIO) { self.owner = owner }
        func transcript(_ line: String) { owner.stdout += line + "\n" }
        func error(_ text: String) { owner.stderr += text + "\n" }
    }
}
