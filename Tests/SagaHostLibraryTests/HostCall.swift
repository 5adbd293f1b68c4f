import Foundation
import SagaCore
import SagaHostLibrary
import SagaRuntime
import Testing

/// Calls the host library's function `name` with `args`, as a saga's `call` would.
func call(_ host: HostFunctions, _ name: String, _ args: [Value]) async throws -> Value {
    let function = try #require(host[name], "no function \(name)")
    return try await function(args)
}

/// The error a call of `name` fails with, or `nil` if it succeeds.
func failure(_ host: HostFunctions, _ name: String, _ args: [Value]) async -> SagaError? {
    do {
        _ = try await call(host, name, args)
        return nil
    } catch let error as SagaError {
        return error
    } catch {
        return SagaError(kind: "Unexpected", message: "\(error)")
    }
}

/// A new empty folder, removed by `body`'s end.
func withFolder(_ body: (String) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostlib-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try await body(folder)
}

/// Whether `condition` holds within a few seconds of real time, asked again every millisecond
/// (what it waits for happens in another thread or process).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<10_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
