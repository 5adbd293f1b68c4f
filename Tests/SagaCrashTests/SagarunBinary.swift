import Foundation

/// Finds the built `sagarun` executable for the crash tests, which run it as a child process.
///
/// SwiftPM puts the test bundle and the products of one configuration in the same folder
/// (`.build/<triple>/<config>/`), so the binary is looked for next to the running test
/// executable (and a few folders up, for a macOS `.xctest` bundle). `SAGARUN_PATH` overrides
/// the search.
enum SagarunBinary {
    /// The path of an executable `sagarun`, or nil when none was built.
    static let path: String? = locate()

    /// Why the crash tests are skipped when ``path`` is nil.
    static let missingReason: String =
        "no built `sagarun` next to the test bundle: run `swift build` before `swift test` (or set SAGARUN_PATH)"

    private static func locate() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["SAGARUN_PATH"], !explicit.isEmpty {
            return isExecutableFile(explicit) ? explicit : nil
        }
        var starts: [String] = []
        // /proc/self/exe is the test runner itself on Linux, even when argv[0] is relative.
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(exe) }
        if let argv0 = CommandLine.arguments.first { starts.append(argv0) }
        starts += Bundle.allBundles.map(\.bundlePath).filter { $0.hasSuffix(".xctest") }
        for start in starts where !start.isEmpty {
            var folder = URL(fileURLWithPath: start).standardizedFileURL.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("sagarun").path
                if isExecutableFile(candidate) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// A regular file we may execute (the `Sources/sagarun` folder must not match).
    private static func isExecutableFile(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }
}
