import Foundation

/// `sagarun test [PATH…] [--update] [--filter TEXT]`: golden-file tests.
enum TestCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        let parsed = try Arguments.parse(args, Commands.test)
        if parsed.has("--help") {
            io.out(Commands.test.helpText)
            return .success
        }
        let paths = parsed.positionals.isEmpty ? ["."] : parsed.positionals
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            io.err("error: no such file or folder '\(path)'\n")
            return .noInput
        }
        var cases = GoldenSuite.discover(paths)
        if let filter = parsed.options["--filter"] {
            cases = cases.filter { $0.saga.contains(filter) }
        }
        var passed = 0
        var failed = 0
        let update = parsed.has("--update")
        for c in cases {
            let result = await GoldenSuite.run(c)
            if result.matches {
                passed += 1
                io.out("PASS \(c.saga)\n")
                continue
            }
            if update {
                do {
                    try result.actual.write(toFile: c.golden, atomically: true, encoding: .utf8)
                    io.out("UPDATED \(c.saga)\n")
                    passed += 1
                } catch {
                    io.err("error: cannot write '\(c.golden)': \(error.localizedDescription)\n")
                    failed += 1
                }
                continue
            }
            failed += 1
            io.out("FAIL \(c.saga)\n")
            io.out(UnifiedDiff.render(expected: result.expected, actual: result.actual, expectedName: c.golden, actualName: "actual"))
            if !result.errors.isEmpty { io.out("standard error:\n" + result.errors) }
        }
        io.out("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .failure
    }
}
