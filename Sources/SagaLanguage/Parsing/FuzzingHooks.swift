import SagaCore

/// What the fuzzers (`Tests/Fuzz`, a package of its own, which sees only what is public) run
/// of the language's internals.
@_spi(Fuzzing) public enum FuzzingHooks {
    /// Runs every reader of `text`'s tokens: lexing and parsing, the diagnostics rendered,
    /// the tree dumped as text and as JSON, and the text formatted.
    public static func parse(_ text: String) {
        let file = SourceFile(path: "fuzz.saga", text: text)
        let (unit, diagnostics) = Parser.parse(file, fileIndex: 0)
        for diagnostic in diagnostics { _ = diagnostic.rendered(files: [file]) }
        _ = ASTDump().render(unit)
        _ = astJSON(unit).canonicalJSON
        _ = SagaFormatter.format(text)
    }

    /// The program's tree as canonical JSON, as `sagarun ast` prints it.
    public static func json(of program: Program) -> String {
        astJSON(program).canonicalJSON
    }

    /// Draws the program's graphs and matches its takes against `inputTypes`.
    public static func draw(_ program: Program, inputTypes: Set<String>) {
        _ = ProgramGraph.dot(program)
        _ = ProgramGraph.mermaid(program)
        _ = ProgramGraph.unmatchedTakes(program, inputTypes: inputTypes)
    }
}
