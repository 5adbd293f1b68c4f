import Foundation

/// A child process whose standard output and error are collected while it runs, so that it
/// can be killed at any moment and still tell what it printed before it died.
///
/// A reader thread per stream drains the pipe as the child writes, so a chatty child never
/// blocks on a full pipe and nothing printed before the kill is lost.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let outPipe = Pipe()
    private let errPipe = Pipe()
    private let lock = NSLock()
    private var out: [UInt8] = []
    private var err: [UInt8] = []
    private let firstLine = DispatchSemaphore(value: 0)
    private var signalledFirstLine = false
    private let readersDone = DispatchGroup()

    init(executable: String, arguments: [String], workingDirectory: String) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
    }

    /// Starts the child and its two reader threads.
    func start() throws {
        try process.run()
        read(outPipe.fileHandleForReading, isOutput: true)
        read(errPipe.fileHandleForReading, isOutput: false)
    }

    /// Waits until the child has printed a whole line, or `timeout` passed.
    ///
    /// - Returns: Whether a line came.
    func waitForFirstLine(timeout: Duration) -> Bool {
        let nanos =
            Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
        return firstLine.wait(timeout: .now() + .nanoseconds(nanos)) == .success
    }

    /// Sends SIGKILL (unless the child already ended), then waits for it and for its output.
    ///
    /// - Returns: Whether the child was still running when it was killed: false means it
    ///   ended on its own, which a saving loop never should.
    func kill() -> Bool {
        let wasRunning = process.isRunning
        if wasRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The pipes reach end-of-file once the dead child's ends are closed; the wait is
        // bounded only in case a stray inherited descriptor keeps a write end open.
        _ = readersDone.wait(timeout: .now() + .seconds(5))
        return wasRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// The lines of standard output that were printed in full (a line cut by the kill is left out).
    var completeLines: [String] {
        let bytes = lock.withLock { out }
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: bytes[..<lastNewline], as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Everything the child wrote to standard error.
    var standardError: String { String(decoding: lock.withLock { err }, as: UTF8.self) }

    /// How the child ended, for failure messages.
    var exitDescription: String {
        process.isRunning
            ? "still running"
            : "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)"
    }

    private func read(_ handle: FileHandle, isOutput: Bool) {
        readersDone.enter()
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock {
                    if isOutput {
                        out.append(contentsOf: chunk)
                        if !signalledFirstLine, chunk.contains(UInt8(ascii: "\n")) {
                            signalledFirstLine = true
                            firstLine.signal()
                        }
                    } else {
                        err.append(contentsOf: chunk)
                    }
                }
            }
            readersDone.leave()
        }
        thread.start()
    }
}
