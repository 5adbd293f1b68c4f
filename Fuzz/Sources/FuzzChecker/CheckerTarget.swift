import SagaCore
import SagaLanguage

/// libFuzzer's entry point: compiles the input as a `.saga` file (parse and check), renders
/// its diagnostics, and draws the graph of a program the checker accepts.
///
/// An input that imports is skipped: imports are read from disk, which a fuzzer must not
/// roam (the loader's own reading is tested by the unit tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChecker(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if bytes.firstRange(of: Array("import".utf8)) != nil { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    let result = Frontend(hostFunctions: ["api.fetch", "host"]).compile(source: text, path: "fuzz.saga")
    _ = result.renderedDiagnostics
    if let program = result.program {
        _ = astJSON(program).canonicalJSON
        _ = ProgramGraph.dot(program)
        _ = ProgramGraph.mermaid(program)
        _ = ProgramGraph.unmatchedTakes(program, inputTypes: ["a", "go"])
    }
    return 0
}
