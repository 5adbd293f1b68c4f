import Foundation
import SagaCommandLine
import SagaRuntime

/// Runs golden-file tests from a Swift test target, with the app's own host functions: each
/// `X.saga` with an `X.golden` beside it runs as `sagarun test` runs it (on the virtual
/// clock, with `X.input.jsonl` and `X.mocks.jsonl` when they are there), and its transcript
/// must equal the golden file.
///
/// ```swift
/// import SagaTesting
/// import Testing
///
/// @Test func sagas() async {
///     let report = await GoldenTests.run("Sagas", host: Catalog.hostFunctions)
///     #expect(report.isSuccess, "\(report)")
/// }
/// ```
///
/// The functions of `host` serve the calls the mocks do not answer: an app's real functions
/// where they are deterministic, fakes where they are not.
public enum GoldenTests {
    /// Runs every golden test under `paths` (files or folders, searched recursively; relative
    /// paths from the current folder, which is the package's under `swift test`).
    public static func run(_ paths: String..., host: HostFunctions = HostFunctions()) async -> GoldenReport {
        await run(paths, host: host)
    }

    /// Runs every golden test under `paths`, as ``run(_:host:)-(String...,_)``.
    public static func run(_ paths: [String], host: HostFunctions = HostFunctions()) async -> GoldenReport {
        var report = GoldenReport()
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            report.failures.append(.init(saga: path, message: "no such file or folder"))
        }
        for c in GoldenSuite.withoutGolden(paths) {
            report.failures.append(
                .init(saga: c.saga, message: "no golden file: 'sagarun test --update \(c.saga)' writes it"))
        }
        for c in GoldenSuite.discover(paths) {
            let result = await GoldenSuite.run(c, host: host)
            if result.matches {
                report.passed.append(c.saga)
                continue
            }
            var message = result.mockProblems.map { "mocks: \($0)\n" }.joined()
            if result.expected != result.actual {
                message += GoldenSuite.diff(expected: result.expected, actual: result.actual, expectedName: c.golden)
            }
            if !result.errors.isEmpty { message += "standard error:\n" + result.errors }
            report.failures.append(.init(saga: c.saga, message: message))
        }
        return report
    }
}
