import Foundation
import SagaCore
import SagaTestSupport
import Testing

@testable import SagaLanguage

/// A large file is parsed in pieces at once, one thread each (Parser+Pieces.swift).
///
/// Cut or not, a file compiles to the same program with the same diagnostics: these tests cut
/// small files as often as they can and compare.
@Suite("A large file is parsed in pieces")
struct ParsePiecesTests {
    /// Cuts every file, at up to eight lines that begin a declaration.
    static let everywhere = ParsePieces(minimumBytes: 0, minimumPieceBytes: 1, maximumPieces: 8)

    /// The program and the diagnostics of `source` compiled as cut by `pieces`.
    static func compiled(_ source: String, _ pieces: ParsePieces) -> Compiled {
        var frontend = Frontend(hostFunctions: ["host"])
        frontend.pieces = pieces
        return Compiled(frontend.compile(source: source, path: "pieces.saga"))
    }

    /// A program's every field (dumped) and its diagnostics, to compare.
    struct Compiled: Equatable, CustomStringConvertible {
        var program: [Substring] = []
        var diagnostics: String

        init(_ result: CompileResult) {
            diagnostics = result.renderedDiagnostics
            guard let checked = result.program else { return }
            var text = ""
            dump(checked, to: &text)
            // The parser's numbers of names, which only the checker reads, are a piece's own.
            program = text.split(separator: "\n").filter { !$0.contains("- nameID: ") }
                .map { $0.replacing(/, nameID: -?\d+/, with: "") }
        }

        var description: String { "\(program.count) lines of program, diagnostics: \(diagnostics)" }

        /// The first line where `self` and `other` differ, for a failure's message.
        func firstDifference(from other: Compiled) -> String {
            guard
                let i = zip(program, other.program).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
            else {
                return diagnostics == other.diagnostics ? "line counts" : "diagnostics"
            }
            return "line \(i): \(program[i]) | \(other.program[i])"
        }
    }

    /// The units `source` is parsed into as cut by ``everywhere``.
    static func units(_ source: String) -> (units: [SourceUnit], diagnostics: [Diagnostic]) {
        var names = NameInterner()
        return Parser.parseUnits(
            SourceFile(path: "pieces.saga", text: source), fileIndex: 0, names: &names, pieces: everywhere)
    }

    /// Functions that call those of earlier pieces, variables met in another order in each
    /// piece, a reducer, a watcher, nested blocks and a string interpolation.
    static let program = """
        state { count: 0, items: [] }
        func double(a) { return a * 2 }
        reduce "add" as act {
          state.count = state.count + act.by
        }
        func twice(b, a) {
          let x = call double(a)
          let y = call double(b)
          return x + y
        }
        saga main {
          let total = call twice(1, 2)
          put "add" { by: total }
          every "ping" as p {
            if p.n > 1 { log "big \\(p.n)" } else { log "small" }
          }
        }
        func third(z) {
          var i = 0
          while i < z { i = i + 1 }
          let d = call double(i)
          let t = call twice(i, z)
          return d + t
        }
        saga other {
          let y = call third(3)
          log y
        }

        """

    @Test func aCutFileGivesTheSameProgramAsAWholeOne() {
        let (units, diagnostics) = Self.units(Self.program)
        #expect(diagnostics.isEmpty)
        #expect(units.count == 5, "one piece for each of the last five declarations' lines")
        #expect(units.contains { !$0.nameMap.isEmpty }, "a piece numbers its names apart")
        let whole = Self.compiled(Self.program, .never)
        #expect(!whole.program.isEmpty, "\(whole.diagnostics)")
        let cut = Self.compiled(Self.program, Self.everywhere)
        #expect(cut == whole, "\(cut.firstDifference(from: whole))")
    }

    @Test func aLaterPieceCallsItsOwnFunctionsAsAWholeFileDoes() {
        // Two pieces, the second with functions calling each other (which its parser plans,
        // counting from the piece's first function) and a function of the first piece.
        let pairs = (0..<8).map { k in
            """
            func one\(k)() { return \(k) }
            func two\(k)() {
              let a = call one\(k)()
              let b = call double(a)
              return b
            }
            saga last\(k) { let t = call two\(k)()
              log t }

            """
        }
        let source = Self.program + pairs.joined()
        let halves = ParsePieces(minimumBytes: 0, minimumPieceBytes: source.utf8.count / 2, maximumPieces: 2)
        var names = NameInterner()
        let (units, _) = Parser.parseUnits(
            SourceFile(path: "pieces.saga", text: source), fileIndex: 0, names: &names, pieces: halves)
        #expect(units.count == 2)
        #expect(units.last.map { astJSON($0).canonicalJSON.contains(#""index":"#) } == true, "a planned callee")
        let whole = Self.compiled(source, .never)
        let cut = Self.compiled(source, halves)
        #expect(!whole.program.isEmpty, "\(whole.diagnostics)")
        #expect(cut == whole, "\(cut.firstDifference(from: whole))")
    }

    @Test func theCheckerSharesOutWholeUnitsInGroupsOfAboutAsManyDeclarations() {
        func runs(_ sizes: [Int]) -> [Checker.UnitRun] {
            var start = 0
            return sizes.map { size in
                defer { start += size }
                return Checker.UnitRun(start: start, end: start + size, calleesArePlanned: true, nameMap: [])
            }
        }
        #expect(Checker.groups(of: runs([5, 5, 5, 5]), count: 2) == [0..<2, 2..<4])
        #expect(Checker.groups(of: runs([9, 1, 1, 1]), count: 2) == [0..<1, 1..<4])
        #expect(Checker.groups(of: runs([3, 3, 3]), count: 8) == [0..<1, 1..<2, 2..<3])
        #expect(Checker.groups(of: runs([0, 4, 0, 4, 0]), count: 2) == [0..<2, 2..<5])
        #expect(Checker.groups(of: runs([5, 5]), count: 1) == [0..<2])
        #expect(Checker.groups(of: runs([5]), count: 4) == [0..<1])
    }

    @Test func piecesStartAtLinesThatBeginADeclaration() {
        var text =
            "state { a: 1 }\nsaga x { log \"saga y\" }\n  saga z { }\nsagaz\nfunc f() { }\nreduce \"r\" as r { }\n"
        let starts = text.withUTF8 { Self.everywhere.starts(in: $0) }
        let lines = starts.map { start in text.utf8.dropFirst(start).prefix(6).map { Character(UnicodeScalar($0)) } }
        #expect(lines.map { String($0) } == ["state ", "saga x", "func f", "reduce"])
    }

    @Test func aSmallFileOrAFewPiecesAreNotCut() {
        var text = Self.program
        #expect(text.withUTF8 { ParsePieces.automatic.starts(in: $0) } == [0])
        let two = ParsePieces(minimumBytes: 0, minimumPieceBytes: text.utf8.count / 2, maximumPieces: 8)
        #expect(text.withUTF8 { two.starts(in: $0) }.count == 2)
    }

    @Test func newlinesAreCountedExactlyEightBytesAtATime() {
        // Bytes next to `\n` in value (0x0B, 0x09, 0x8A) and zeros, at every alignment.
        var random = SplitMix64(seed: 6)
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x0B, 0x09, 0x8A, 0x00, 0xFF, 0x61]
        let bytes = (0..<300).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        bytes.withUnsafeBufferPointer { buffer in
            for lower in 0..<17 {
                for upper in stride(from: lower, through: bytes.count, by: 7) {
                    let expected = bytes[lower..<upper].filter { $0 == 0x0A }.count
                    #expect(Parser.lines(in: buffer, lower..<upper).newlines == expected, "\(lower)..<\(upper)")
                }
            }
        }
    }

    @Test func linesThatBeginWithFuncAreCountedAtEveryAlignment() {
        // `func ` and `func\t` lines among lines that only look like them, at every offset.
        let lines = ["func a() { }", "saga s { }", "func\tb() { }", "  func c() { }", "funcd", "fun", "func", "x"]
        var random = SplitMix64(seed: 7)
        for _ in 0..<40 {
            let picked = (0..<12).map { _ in lines[Int(random.next() % UInt64(lines.count))] }
            let text = picked.joined(separator: "\n") + "\n"
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                for lower in [0, 1, 5] {
                    // The lines that begin after a newline inside the range, and before its end.
                    var expected = 0
                    var offset = 0
                    for line in picked {
                        if offset > lower, offset < bytes.count, line.hasPrefix("func ") || line.hasPrefix("func\t") {
                            expected += 1
                        }
                        offset += line.utf8.count + 1
                    }
                    #expect(Parser.lines(in: buffer, lower..<bytes.count).functionLines == expected, "\(text)")
                }
            }
        }
    }

    @Test func aPieceCountsItsFunctionsFromTheFunctionLinesBeforeIt() {
        // The first piece is the longer, so that the cut falls at `func c`.
        let first =
            "func a() { return 1 }\n/* a comment\nfunc fake() { }\n*/\nfunc b() { return 2 }\n"
            + "// " + String(repeating: "padding ", count: 12) + "\n"
        let second = "func c() { let y = call a()\n  return y }\nsaga s { let x = call c()\n  log x }\n"
        var text = first + second
        let starts = [0, first.utf8.count]
        let counted = text.withUTF8 { Parser.lineNumbers(of: starts, in: $0) }
        #expect(counted.lines == [1, 7])
        #expect(counted.functionsBefore == [0, 3], "the line in the comment counts too: a guess")
        // A third piece counts the `func` line that begins the second.
        let third = [0, first.utf8.count, first.utf8.count + second.utf8.count - 1]
        let three = text.withUTF8 { Parser.lineNumbers(of: third, in: $0) }
        #expect(three.lines == [1, 7, 10] && three.functionsBefore == [0, 3, 4])
        for source in [text, first.replacingOccurrences(of: "func fake", with: "fake") + second] {
            let halves = ParsePieces(minimumBytes: 0, minimumPieceBytes: 1, maximumPieces: 2)
            var names = NameInterner()
            let (units, _) = Parser.parseUnits(
                SourceFile(path: "pieces.saga", text: source), fileIndex: 0, names: &names, pieces: halves)
            #expect(units.count == 2)
            let whole = Self.compiled(source, .never)
            let cut = Self.compiled(source, halves)
            #expect(!whole.program.isEmpty, "\(whole.diagnostics)")
            #expect(cut == whole, "\(cut.firstDifference(from: whole))")
        }
    }

    @Test func aLaterPiecesPlannedCallsAreTheProgramsWhenItsFunctionsWereCountedRight() {
        // The second piece's parser counts from the first piece's two functions, so its call of
        // `c` is planned as the program's function 2, which the checker keeps.
        // The first piece is the longer, so that the cut falls at `func c`.
        let first =
            "func a() { return 1 }\nfunc b() { return 2 }\n// " + String(repeating: "padding ", count: 12) + "\n"
        let source = first + "func c() { return 3 }\nsaga s {\n  let x = call c()\n  log x }\n"
        let halves = ParsePieces(minimumBytes: 0, minimumPieceBytes: 1, maximumPieces: 2)
        var names = NameInterner()
        let (units, _) = Parser.parseUnits(
            SourceFile(path: "pieces.saga", text: source), fileIndex: 0, names: &names, pieces: halves)
        #expect(units.map(\.plannedFunctionsBase) == [0, 2])
        #expect(units.last.map { astJSON($0).canonicalJSON.contains(#""index":2"#) } == true)
        var frontend = Frontend(hostFunctions: [])
        frontend.pieces = halves
        let program = frontend.compile(source: source, path: "pieces.saga").program
        let statement = program?.sagas.first?.body.statements.first
        guard case .effect(.call(.function(let index, _), _, _))? = statement.flatMap(Self.rhs)
        else {
            Issue.record("no call in \(String(describing: program))")
            return
        }
        #expect(index == 2)
    }

    /// The right-hand side of a `let`.
    static func rhs(_ statement: Stmt) -> Rhs? {
        guard case .declare(_, _, let rhs, _) = statement else { return nil }
        return rhs
    }

    @Test func aFileCutWhereNoDeclarationStartsIsParsedWhole() {
        // Each line that begins with a keyword here lies inside something else: a block
        // comment, a record, a block. The piece before it fails, so the file is parsed whole.
        for inside in [
            "/* a comment\nsaga hidden { }\n*/\nsaga main { log 1 }\n",
            "state {\n  a: 1,\nfunc f() { }\n}\nsaga main { }\n",
            "saga main {\n  log 1\nsaga inner { }\n}\n",
        ] {
            let (units, diagnostics) = Self.units(inside)
            #expect(units.count == 1, "\(inside)")
            let whole = Self.compiled(inside, .never)
            let cut = Self.compiled(inside, Self.everywhere)
            #expect(cut == whole, "\(inside): \(cut.firstDifference(from: whole))")
            #expect(
                diagnostics.map(\.message)
                    == Parser.parse(SourceFile(path: "p", text: inside), fileIndex: 0)
                    .diagnostics.map(\.message))
        }
    }

    @Test func errorsInAPieceAreReportedAsInAWholeFile() {
        // A syntax error in a later piece, and two functions of one name in different pieces.
        for broken in [
            Self.program + "saga broken { let = 1 }\nfunc ok() { return 1 }\n",
            Self.program + "func double(q) { return q }\nsaga late { let x = call double(1) }\n",
            // The call names the first `double`, which takes one argument, not the one of its
            // own piece (indented, the saga's line does not begin a piece), which takes two.
            Self.program + "func double(p, q) { return p }\n  saga late { let x = call double(1, 2) }\n",
            Self.program + "saga undefined { log nowhere }\n",
            Self.program + "saga late { }\nstate { other: 1 }\n",
        ] {
            let whole = Self.compiled(broken, .never)
            #expect(!whole.diagnostics.isEmpty)
            let cut = Self.compiled(broken, Self.everywhere)
            #expect(cut == whole, "\(broken): \(cut.firstDifference(from: whole))")
        }
    }

    @Test func everyExampleCompilesTheSameCut() throws {
        let sagas = SlotPlanningTests.sagas
        let files = try #require(FileManager.default.enumerator(atPath: sagas.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".saga") }.sorted()
        var cut = 0
        for file in files {
            let path = sagas.appendingPathComponent(file).path
            let results = [ParsePieces.never, Self.everywhere].map { pieces in
                var frontend = Frontend(hostFunctions: ["api.fetch", "host"])
                frontend.pieces = pieces
                return Compiled(frontend.compile(path: path))
            }
            #expect(results[1] == results[0], "\(file): \(results[1].firstDifference(from: results[0]))")
            if let text = try? String(contentsOfFile: path, encoding: .utf8), Self.units(text).units.count > 1 {
                cut += 1
            }
        }
        #expect(cut >= 20, "most examples have more than one declaration")
    }
}
