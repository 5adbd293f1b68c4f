import Foundation

/// `sagarun test [PATH…] [--update] [--filter TEXT]`: golden-file tests.
enum TestCommand {
    static func main(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.test.parse(args, io) else { return .success }
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
        if parsed.has("--inject-failures") {
            for c in cases {
                let summary = await FailureInjection.summary(for: c, twice: parsed.has("--twice"))
                let goldenPath = String(c.saga.dropLast(".saga".count)) + ".failures.golden"
                let expected = try? String(contentsOfFile: goldenPath, encoding: .utf8)
                if update {
                    try? summary.write(toFile: goldenPath, atomically: true, encoding: .utf8)
                    io.out("UPDATED \(goldenPath)\n")
                    passed += 1
                } else if let expected, expected != summary {
                    failed += 1
                    io.out("FAIL \(c.saga) (failure injection)\n")
                    io.out(
                        UnifiedDiff.render(
                            expected: expected, actual: summary, expectedName: goldenPath, actualName: "actual"))
                } else {
                    passed += 1
                    io.out(
                        "\(expected == nil ? "REPORT" : "PASS") \(c.saga)\n"
                            + summary.split(separator: "\n").map { "  \($0)\n" }.joined())
                }
            }
            io.out("\(passed) passed, \(failed) failed\n")
            return failed == 0 ? .success : .failure
        }
        let progress = io.outputIsTerminal && cases.count > 1
        for (i, c) in cases.enumerated() {
            if progress { io.out("\u{1B}[2K\r[\(i + 1)/\(cases.count)] \(c.saga)") }
            let result = await GoldenSuite.run(c)
            if progress { io.out("\u{1B}[2K\r") }
            if result.matches {
                passed += 1
                if !progress { io.out("PASS \(c.saga)\n") }
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
            io.out(
                UnifiedDiff.render(
                    expected: result.expected, actual: result.actual, expectedName: c.golden, actualName: "actual"))
            if !result.errors.isEmpty { io.out("standard error:\n" + result.errors) }
        }
        io.out("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .failure
    }
}
