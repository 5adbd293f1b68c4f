import SagaCore
import SagaLanguage

/// libFuzzer's entry point: lexes and parses the input as a `.saga` file (lossily decoded,
/// as the loader shows a file that is not UTF-8), then dumps the tree and formats the text,
/// which read the same tokens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file = SourceFile(path: "fuzz.saga", text: text)
    let (unit, diagnostics) = Parser.parse(file, fileIndex: 0)
    for diagnostic in diagnostics { _ = diagnostic.rendered(files: [file]) }
    _ = ASTDump.render(unit)
    _ = astJSON(unit).canonicalJSON
    _ = SagaFormatter.format(text)
    return 0
}
