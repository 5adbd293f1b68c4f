@_spi(Fuzzing) import SagaLanguage

/// libFuzzer's entry point: lexes and parses the input as a `.saga` file (lossily decoded,
/// as the loader shows a file that is not UTF-8), then dumps the tree and formats the text,
/// which read the same tokens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzingHooks.parse(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
