import Dispatch
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime

/// libFuzzer's entry point: the input is a program, then a line `%%`, then its input lines
/// (JSONL); it runs on the virtual clock with small step budgets, so that every run ends.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInterpreter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let done = DispatchSemaphore(value: 0)
    Task {
        await FuzzRun.run(bytes)
        done.signal()
    }
    done.wait()
    return 0
}
