// A large file parsed in pieces at once, one thread each (see ParsePieces for where it is cut).

import Dispatch
import SagaCore
import Synchronization

extension Parser {
    /// Parses one source file as ``parse(_:fileIndex:names:plansSlots:into:)`` does (planning
    /// slots), in pieces on several threads when `pieces` cuts it, each piece into a `Sink` of
    /// its own.
    ///
    /// Each piece is a unit of its own, in file order, with names numbered apart and mapped to
    /// `names` (``SourceUnit/nameMap``). A piece that does not parse cleanly (a diagnostic of
    /// any kind) means that the file may not have been cut between declarations, and it is
    /// parsed again whole: the result, diagnostics included, is then the same as if it had
    /// never been cut. Parsing spends most of `sagarun check`'s time; the checker then checks
    /// the pieces at once too (Checker+AtOnce.swift), or each piece's sink checks its
    /// declarations as they are parsed (`CheckingSink`).
    static func parseUnits<Sink: DeclarationSink>(
        _ file: SourceFile, fileIndex: Int32, names: inout NameInterner, pieces: ParsePieces, into _: Sink.Type
    ) -> (units: [SourceUnit], diagnostics: [Diagnostic]) {
        var text = file.text
        let parsed: [Piece]? = text.withUTF8 { bytes in
            let starts = pieces.starts(in: bytes)
            guard starts.count > 1 else { return nil }
            return parsePieces(bytes, starts: starts, fileIndex: fileIndex, into: Sink.self)
        }
        guard let parsed else {
            let (unit, diagnostics) = DeepStack.run {
                parse(file, fileIndex: fileIndex, names: &names, plansSlots: true, into: Sink.self)
            }
            return ([unit], diagnostics)
        }
        var units: [SourceUnit] = []
        units.reserveCapacity(parsed.count)
        for piece in parsed {
            var unit = piece.unit
            unit.calleesArePlanned = true
            unit.plannedFunctionsBase = piece.functionsBefore
            if Sink.needsProgramNames, names.count == 0 {
                names = piece.names  // the program's first names: numbered as the piece numbers them
            } else if Sink.needsProgramNames {
                let map = names.adopt(piece.names)
                if !map.elementsEqual(0..<Int32(map.count)) { unit.nameMap = map }
            }
            units.append(unit)
        }
        return (units, [])
    }

    /// Parses one source file into ``DeclarationList``s, keeping every declaration.
    static func parseUnits(
        _ file: SourceFile, fileIndex: Int32, names: inout NameInterner, pieces: ParsePieces
    ) -> (units: [SourceUnit], diagnostics: [Diagnostic]) {
        parseUnits(file, fileIndex: fileIndex, names: &names, pieces: pieces, into: DeclarationList.self)
    }

    /// What one piece parsed into, with the names it numbered.
    struct Piece: Sendable {
        /// Its declarations, as its sink made them a unit.
        var unit: SourceUnit
        var names: NameInterner
        /// How many functions its parser took to come before it (``SourceUnit/plannedFunctionsBase``).
        var functionsBefore: Int
    }

    /// Parses the pieces starting at `starts` at once; `nil` when any of them reports anything.
    private static func parsePieces<Sink: DeclarationSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, starts: [Int], fileIndex: Int32, into _: Sink.Type
    ) -> [Piece]? {
        let (lines, functionsBefore) = lineNumbers(of: starts, in: bytes)
        let results = Mutex<[Piece?]>(Array(repeating: nil, count: starts.count))
        let source = SharedBytes(bytes: bytes)
        DispatchQueue.concurrentPerform(iterations: starts.count) { index in
            let end = index + 1 < starts.count ? starts[index + 1] : source.bytes.count
            let lexer = Lexer(
                bytes: UnsafeBufferPointer(rebasing: source.bytes[..<end]), file: fileIndex, from: starts[index],
                line: lines[index])
            var names = NameInterner()
            let (sink, diagnostics) = DeepStack.run {
                parse(
                    lexer, fileIndex: fileIndex, names: &names, plansSlots: true,
                    functionsBefore: Int32(truncatingIfNeeded: functionsBefore[index]), into: Sink.self)
            }
            guard diagnostics.isEmpty else { return }  // its result stays nil
            let piece = Piece(unit: sink.unit(file: fileIndex), names: names, functionsBefore: functionsBefore[index])
            results.withLock { $0[index] = piece }
        }
        let pieces = results.withLock { $0.compactMap { $0 } }
        return pieces.count == starts.count ? pieces : nil
    }

    /// The 1-based line on which each offset of `starts` (in increasing order) lies, and how
    /// many lines before it begin with `func ` (``ParsePieces/startsFunction(_:at:)``).
    ///
    /// The second is what each piece's parser counts its functions from, so that a call it
    /// plans names the function by its index in the program. A line that begins so and is not
    /// a function (in a block comment, say) makes the guess wrong: the checker then makes the
    /// piece's planned calls again with the right index (`Checker.resolveCallee`), as it would
    /// have to for every piece but the first without the guess.
    static func lineNumbers(
        of starts: [Int], in bytes: UnsafeBufferPointer<UInt8>
    ) -> (lines: [Int32], functionsBefore: [Int]) {
        var lines: [Int32] = []
        var functions: [Int] = []
        lines.reserveCapacity(starts.count)
        functions.reserveCapacity(starts.count)
        var line = 1
        var functionLines = 0
        var offset = 0
        for start in starts {
            // `offset` begins a line: the file's first, or the piece before's first.
            if offset < start, ParsePieces.startsFunction(bytes, at: offset) { functionLines += 1 }
            let counted = Self.lines(in: bytes, offset..<start)
            line += counted.newlines
            functionLines += counted.functionLines
            offset = start
            lines.append(Int32(truncatingIfNeeded: line))
            functions.append(functionLines)
        }
        return (lines, functions)
    }

    /// How many `\n` bytes `bytes[range]` holds, and how many of the lines they end are
    /// followed by one that begins with `func ` (``ParsePieces/startsFunction(_:at:)``).
    ///
    /// Counted eight bytes at a time (SWAR), on one thread before the pieces' threads start:
    /// cheaper than a byte at a time, and than Swift's `SIMD16` compares, which are made a
    /// lane at a time here.
    ///
    /// Only the lines that begin after a newline of `range` are looked at, not one that begins
    /// at its lower bound, nor at its upper.
    static func lines(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (newlines: Int, functionLines: Int)
    {
        guard let base = bytes.baseAddress, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            return (0, 0)
        }
        let raw = UnsafeRawPointer(base)
        var newlines = 0
        var functionLines = 0
        var i = range.lowerBound
        // Eight bytes at a time while the eight after them can be read too.
        while i &+ 9 <= range.upperBound {
            let newline = Self.zeroBytes(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A)
            // Each byte of `newline >> 7` is 1 or 0; the product's top byte is their sum.
            // (This build may not use the CPU's population count, and `nonzeroBitCount`
            // without it costs more than the multiply.)
            newlines &+= Int(truncatingIfNeeded: ((newline >> 7) &* 0x0101_0101_0101_0101) >> 56)
            // A newline followed by `f`: only there can a `func` line begin.
            let next = raw.loadUnaligned(fromByteOffset: i &+ 1, as: UInt64.self)
            var candidates = newline & Self.zeroBytes(next ^ 0x6666_6666_6666_6666)
            while candidates != 0 {
                if ParsePieces.startsFunction(bytes, at: i &+ candidates.trailingZeroBitCount / 8 &+ 1) {
                    functionLines &+= 1
                }
                candidates &= candidates &- 1
            }
            i &+= 8
        }
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "\n") {
                newlines += 1
                if i + 1 < range.upperBound, ParsePieces.startsFunction(bytes, at: i + 1) { functionLines += 1 }
            }
            i += 1
        }
        return (newlines, functionLines)
    }

    /// The high bit of each byte of the result is set exactly where `x` has a zero byte.
    ///
    /// Adding 0x7F to a byte's low seven bits sets its high bit unless they are all 0, without
    /// carrying into the next byte; or-ing in the byte itself sets it when its own high bit is.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }
}

/// The source's bytes, read by every piece's thread while the caller waits for them all: no
/// thread writes them, and they outlive the threads.
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}
