import SagaCore
@_spi(Fuzzing) @_spi(Testing) import SagaLanguage

/// libFuzzer's entry point: compiles the input as a `.saga` file (parse and check), renders
/// its diagnostics, and draws the graph of a program the checker accepts.
///
/// The input is compiled a second time cut into as many pieces as it can be (see
/// `ParsePieces`): the program and the diagnostics must be the same as the whole file's.
///
/// It is also checked as `sagarun check` checks it, each declaration as it is parsed
/// (`Frontend.check`), whole and cut: the diagnostics must be the same as the compile's.
///
/// An input that imports is skipped: imports are read from disk, which a fuzzer must not
/// roam (the loader's own reading is tested by the unit tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChecker(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if bytes.firstRange(of: Array("import".utf8)) != nil { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    let result = Frontend(hostFunctions: ["api.fetch", "host"]).compile(source: text, path: "fuzz.saga")
    var cutting = Frontend(hostFunctions: ["api.fetch", "host"])
    cutting.cutsEveryFile()
    let cut = cutting.compile(source: text, path: "fuzz.saga")
    if cut.renderedDiagnostics != result.renderedDiagnostics
        || cut.program.map(FuzzingHooks.json(of:)) != result.program.map(FuzzingHooks.json(of:))
    {
        fatalError("a file cut into pieces compiles to another program:\n\(text)")
    }
    let checked = Frontend(hostFunctions: ["api.fetch", "host"]).check(source: text, path: "fuzz.saga")
    let cutChecked = cutting.check(source: text, path: "fuzz.saga")
    if checked.renderedDiagnostics != result.renderedDiagnostics
        || cutChecked.renderedDiagnostics != result.renderedDiagnostics
    {
        fatalError("a file checked as it is parsed reports otherwise than its compile:\n\(text)")
    }
    if let program = result.program {
        FuzzingHooks.draw(program, inputTypes: ["a", "go"])
    }
    return 0
}
