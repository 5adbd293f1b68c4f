import Foundation
import SagaCore

/// libFuzzer's entry point: reads the input as JSON, and checks that a value it accepts
/// writes as canonical JSON that reads back and writes as the same text.
///
/// The same text, not always the same value: a double past 2^53 is written as JavaScript
/// writes it (`1846743446743646200`), which reads back as that `Int` (an integer that fits is
/// an `Int`), not as the double it came from (…208).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let value = try? JSONReader.parse(bytes: bytes) else { return 0 }
    let text = value.canonicalJSON
    guard let again = try? JSONReader.parse(text) else {
        fuzzFailure("the canonical JSON does not read back: \(text.prefix(200))")
    }
    guard again.canonicalJSON == text else {
        fuzzFailure("the canonical JSON writes differently once read back: \(text.prefix(200))")
    }
    return 0
}

/// Reports a broken property and aborts, so that libFuzzer keeps the input as a crash.
func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("fuzz property failed: " + message + "\n").utf8))
    abort()
}
