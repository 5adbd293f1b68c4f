import SagaCore

/// Turns `.saga` source into a checked ``Program``: reads the root file and its imports,
/// parses each, checks the whole, and collects every diagnostic on the way.
///
/// ```swift
/// let result = Frontend(hostFunctions: ["api.fetchUser"]).compile(path: "app.saga")
/// guard let program = result.program else {
///     for diagnostic in result.diagnostics { print(diagnostic.rendered(files: result.files)) }
///     return
/// }
/// ```
///
/// Imports: `import "other.saga"` names a file relative to the importing file's folder. Each
/// file is read once, however often it is imported (a diamond is fine); an import that leads
/// back to a file still being read is an error ("import cycle: a.saga → b.saga → a.saga").
/// File index 0 is the root; imported files get the next indices in the order they are read.
///
/// Declaration order: the declarations of every file merge into one program, an imported
/// file's declarations before those of the file importing it, depth-first in import order
/// (each file once, where it is first imported). So the `state`, reducers and sagas of an
/// imported file come before the importer's own, and reducers and root sagas run in that order.
///
/// When reading or parsing reports an error, the checker does not run: its reports would
/// mostly be echoes of the missing or broken declarations.
///
/// Each call parses and checks on a thread of its own, whose stack holds the deepest nesting
/// the language accepts (256 levels) in any build, and waits for it: the calling thread's stack
/// may be small, as a Dispatch worker's or a cooperative pool thread's is.
public struct Frontend: Sendable {
    /// Names a `call`, `fork` or `spawn` may name besides the program's own functions.
    public var hostFunctions: Set<String>
    /// When a large file is parsed in pieces, on several threads (tests cut small files).
    var pieces = ParsePieces.automatic

    /// Cuts every file into as many pieces as it can, however small, so that the fuzzer can
    /// compare what a cut file compiles to with the whole file's (they must be the same).
    @_spi(Testing) public mutating func cutsEveryFile() {
        pieces = ParsePieces(minimumBytes: 0, minimumPieceBytes: 1, maximumPieces: 8)
    }

    /// Creates a frontend.
    ///
    /// - Parameter hostFunctions: names a `call`/`fork`/`spawn` may name besides the
    ///   program's own functions (dotted names like `"api.fetchUser"` allowed).
    public init(hostFunctions: Set<String> = []) {
        self.hostFunctions = hostFunctions
    }

    /// Reads, parses and checks the file at `path` and every file it imports.
    ///
    /// - Parameter path: the root file, as the user named it (shown in diagnostics).
    /// - Returns: the program, or the diagnostics that explain why there is none; a file that
    ///   cannot be read is listed in ``CompileResult/unreadableFiles``.
    public func compile(path: String) -> CompileResult {
        DeepStack.run {
            var loader = loaded { $0.load(path: path) }
            return finish(&loader)
        }
    }

    /// Parses and checks `source` as the root file at `path`; its imports are read from disk,
    /// relative to `path`'s folder.
    ///
    /// ```swift
    /// let result = Frontend().compile(source: "saga main { log 1 }", path: "main.saga")
    /// ```
    public func compile(source: String, path: String) -> CompileResult {
        DeepStack.run {
            var loader = loaded { $0.load(source: source, path: path) }
            return finish(&loader)
        }
    }

    /// Reads, parses and checks the file at `path` and every file it imports, for the
    /// diagnostics alone: ``compile(path:)``'s, in the same order, without the program.
    ///
    /// Each reducer, saga and function is checked as soon as it is parsed and then let go of,
    /// so a large file is never held whole in memory, and checking it takes less time and a
    /// fraction of the heap. What a body's check needs of the declarations after it, which
    /// function a `call` names, waits until every file is parsed.
    ///
    /// ```swift
    /// let result = Frontend().check(path: "app.saga")
    /// print(result.renderedDiagnostics, terminator: "")
    /// ```
    ///
    /// - Returns: the diagnostics and files; ``CompileResult/program`` is always `nil`, so
    ///   ``CompileResult/hasErrors`` says whether the program would compile.
    public func check(path: String) -> CompileResult {
        DeepStack.run {
            var loader = loaded(checkingWhileParsing: true) { $0.load(path: path) }
            return finishChecking(&loader)
        }
    }

    /// Checks `source` as the root file at `path`, as ``check(path:)`` checks a file read
    /// from disk; its imports are read from disk, relative to `path`'s folder.
    public func check(source: String, path: String) -> CompileResult {
        DeepStack.run {
            var loader = loaded(checkingWhileParsing: true) { $0.load(source: source, path: path) }
            return finishChecking(&loader)
        }
    }

    /// A loader set as this frontend sets it, once `load` has read the root file (and its
    /// imports) into it.
    private func loaded(checkingWhileParsing: Bool = false, _ load: (inout SourceLoader) -> Void) -> SourceLoader {
        var loader = SourceLoader()
        loader.pieces = pieces
        loader.checksWhileParsing = checkingWhileParsing
        load(&loader)
        return loader
    }

    /// The diagnostics of a load whose bodies were checked as they were parsed: as
    /// ``finish(_:)``'s, the checker's only when reading and parsing reported no error.
    private func finishChecking(_ loader: inout SourceLoader) -> CompileResult {
        var diagnostics = loader.diagnostics
        var callees: Set<String> = []
        if !diagnostics.contains(where: { $0.severity == .error }) {
            var checker = Checker(hostFunctions: hostFunctions)
            checker.names = loader.takeNames()
            checker.finishChecking(units: loader.takeUnits())
            diagnostics += checker.diagnostics
            callees = checker.hostCallees
        }
        var result = CompileResult(
            program: nil, diagnostics: DiagnosticOrder.sorted(diagnostics), files: loader.files,
            unreadableFiles: loader.unreadableFiles)
        result.hostCallees = callees
        return result
    }

    /// Checks what the loader read, unless reading or parsing already failed.
    private func finish(_ loader: inout SourceLoader) -> CompileResult {
        var diagnostics = loader.diagnostics
        var callees: Set<String> = []
        var program: Program?
        if !diagnostics.contains(where: { $0.severity == .error }) {
            var checker = Checker(hostFunctions: hostFunctions)
            // A file parsed in pieces is large enough for its declarations to be checked at
            // once too, a group of pieces on each thread.
            if loader.units.count > loader.files.count { checker.parallelism = pieces.maximumPieces }
            checker.names = loader.takeNames()
            // Taken from the loader, so that the checker holds the only reference to the tree.
            program = checker.check(units: loader.takeUnits(), files: loader.files)
            diagnostics += checker.diagnostics
            callees = checker.hostCallees
            program?.hostCallees = callees.sorted()
        }
        var result = CompileResult(
            program: program, diagnostics: DiagnosticOrder.sorted(diagnostics), files: loader.files,
            unreadableFiles: loader.unreadableFiles)
        result.hostCallees = callees
        return result
    }
}
