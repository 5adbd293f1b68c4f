import SagaCore
import SagaLanguage
import SagaPersistence
@_spi(Testing) import SagaRuntime

/// One fuzz run of the interpreter, as `sagarun run --virtual-time --memory --print-actions
/// --print-state` makes it, with budgets small enough for thousands of runs a second.
///
/// Each program runs first with the interpreter's short cuts off (its statements as written)
/// and a run-step budget; one that ends within the budget runs a second time with the short
/// cuts (a `put` processed on the spot, blocks run without a task, compiled loops) and without the
/// budget. The short cuts must not change what a program does: the two runs must print the
/// same transcript and errors and end the same way.
enum FuzzRun {
    /// The line between the program and its input.
    static let separator = Array("\n%%\n".utf8)

    /// What one run printed and how it ended.
    struct Outcome: Equatable {
        var lines: [String]
        var errors: [String]
        var status: RunStatus
    }

    /// Compiles the program part of `bytes` and runs it with the input part, twice if it ends
    /// within its budget.
    static func run(_ bytes: [UInt8]) async {
        let (programBytes, inputBytes) = split(bytes)
        // Imports are read from disk, which a fuzzer must not roam.
        if programBytes.firstRange(of: Array("import".utf8)) != nil { return }
        let source = String(decoding: programBytes, as: UTF8.self)
        var host = HostFunctions()
        host.register("host") { args in .list(args) }
        host.register("api.fetch") { _ in throw SagaError.typeError("api.fetch fails") }
        let compiled = Frontend(hostFunctions: host.names).compile(source: source, path: "fuzz.saga")
        guard let program = compiled.program else { return }
        let input = lines(inputBytes)

        let written = await once(program, host: host, input: input, maxRunSteps: 200_000, shortCuts: false)
        guard !written.errors.contains(where: { $0.contains("the run took more than") }) else { return }
        let short = await once(program, host: host, input: input, maxRunSteps: nil, shortCuts: true)
        if short != written {
            fatalError("the short cuts changed the run:\nwithout them: \(written)\nwith them: \(short)")
        }
    }

    private static func once(
        _ program: Program, host: HostFunctions, input: [String], maxRunSteps: Int?, shortCuts: Bool
    ) async -> Outcome {
        var options = Interpreter.Options(virtualTime: true, printActions: true, printState: true, timestamps: true)
        options.maxSteps = 10_000
        options.maxCallDepth = 200
        options.maxRunSteps = maxRunSteps
        options.shortCuts = shortCuts
        let store = MemoryStore()
        let persistence = ValuePersistence(store: store)
        let output = BufferedOutput()
        let interpreter = Interpreter(
            program: program, options: options, host: host, middleware: [persistence.middleware],
            reducers: [persistence.reduce], output: output)
        persistence.scheduler = interpreter.asyncWork
        let status = await interpreter.run(input: InputSource(lines: input))
        await store.close()
        return Outcome(lines: output.lines, errors: output.errors, status: status)
    }

    /// The program and the input, at the first separator (all program when there is none).
    static func split(_ bytes: [UInt8]) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        guard let range = bytes.firstRange(of: separator) else { return (bytes[...], []) }
        return (bytes[..<range.lowerBound], bytes[range.upperBound...])
    }

    /// The input's lines, as the line reader cuts them (a `\r` before the `\n` dropped).
    static func lines(_ bytes: ArraySlice<UInt8>) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
    }
}
