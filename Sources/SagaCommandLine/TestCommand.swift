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
        if parsed.has("--twice"), !parsed.has("--inject-failures") {
            throw UsageError("--twice goes with --inject-failures (it runs each compensation twice)", command: "test")
        }
        let update = parsed.has("--update")
        let filter = parsed.options["--filter"]
        var cases = GoldenSuite.discover(paths, missing: update)
        var withoutGolden = update ? [] : GoldenSuite.withoutGolden(paths)
        // An empty filter, as a script's unset variable gives it, keeps every test.
        if let filter, !filter.isEmpty {
            cases = cases.filter { $0.saga.contains(filter) }
            withoutGolden = withoutGolden.filter { $0.saga.contains(filter) }
        }
        if cases.isEmpty, withoutGolden.isEmpty {
            io.err(
                "error: no golden tests under \(paths.joined(separator: ", "))\(filter.map { " matching '\($0)'" } ?? ""): "
                    + "a test is X.saga with X.golden beside it ('sagarun test --update X.saga' writes the golden)\n")
            return .failure
        }
        var passed = 0
        var failed = 0
        for c in withoutGolden {
            failed += 1
            // `--update` writes no golden for a program that does not run: say why instead.
            let result = await GoldenSuite.run(c)
            guard result.exitCode >= 64 else {
                guard result.mockProblems.isEmpty else {
                    // `--update` writes no golden while the mocks have problems.
                    io.out(
                        "NO GOLDEN \(c.saga): its mocks do not fit the run; once they do, "
                            + "'sagarun test --update \(c.saga)' writes \(c.golden)\n"
                            + Self.mockProblemLines(result.mockProblems))
                    continue
                }
                io.out("NO GOLDEN \(c.saga): run 'sagarun test --update \(c.saga)' to write \(c.golden)\n")
                continue
            }
            io.out(
                "NO GOLDEN \(c.saga): it does not run (exit \(result.exitCode)); once it does, 'sagarun test --update' writes \(c.golden)\n"
            )
            if !result.errors.isEmpty { io.out("standard error:\n" + result.errors) }
        }
        if parsed.has("--inject-failures") {
            for c in cases {
                let (summary, ran) = await FailureInjection.summary(for: c, twice: parsed.has("--twice"))
                let goldenPath = String(c.saga.dropLast(".saga".count)) + ".failures.golden"
                let expected = try? String(contentsOfFile: goldenPath, encoding: .utf8)
                if !ran {
                    // No failure was injected: nothing to keep, nothing that passed.
                    failed += 1
                    io.out(
                        "FAIL \(c.saga) (failure injection): it did not run\(update ? ", so no golden was written" : "")\n"
                            + summary.split(separator: "\n").map { "  \($0)\n" }.joined())
                } else if update {
                    passed += 1
                    if expected == summary {
                        io.out("PASS \(c.saga) (failure injection)\n")
                        continue
                    }
                    if let why = TextFile.write(summary, to: goldenPath) {
                        passed -= 1
                        failed += 1
                        io.err("error: cannot write '\(goldenPath)': \(why)\n")
                    } else {
                        io.out("\(expected == nil ? "CREATED" : "UPDATED") \(goldenPath)\n")
                    }
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
            if c.hasGolden, TextFile.isFolder(c.golden) {
                failed += 1
                io.out("FAIL \(c.saga): \(c.golden) is a folder, where its golden file goes\n")
                continue
            }
            if progress { io.out("\u{1B}[2K\r[\(i + 1)/\(cases.count)] \(c.saga)") }
            let result = await GoldenSuite.run(c)
            if progress { io.out("\u{1B}[2K\r") }
            // Warnings about the input file (a line `{"at": 10, "type": …}`) are shown, pass or
            // fail: standard error is not part of a golden.
            if let input = c.input {
                for line in result.errors.split(separator: "\n") where line.hasPrefix("\(input):") {
                    guard let range = line.range(of: " warning: ") else { continue }
                    io.out(line.replacingCharacters(in: range, with: " note: ") + "\n")
                }
            }
            for misnamed in c.misnamed {
                let stem = c.saga.dropLast(".saga".count)
                io.out(
                    "note: \(misnamed) is not read: a test's input lines are in \(stem).input.jsonl, "
                        + "its mocks in \(stem).mocks.jsonl\n")
            }
            // A program that did not run (it does not compile, or its input or mocks cannot be
            // read, a malformed input line part-way through included) fails, and no golden is
            // written from it.
            if result.exitCode >= 64 {
                failed += 1
                io.out("FAIL \(c.saga): it did not run\(c.hasGolden ? "" : ", so no golden was written")\n")
                if !result.errors.isEmpty { io.out("standard error:\n" + result.errors) }
                continue
            }
            if result.matches, c.hasGolden {
                passed += 1
                // A saga that failed passes when its transcript matches (errors are not part of
                // a golden): say so, lest the failure go unseen.
                if result.exitCode != 0, let first = Self.firstError(in: result.errors) {
                    io.out(
                        "PASS \(c.saga)\n  note: the run exited with \(result.exitCode), not in the golden: \(first)\n")
                } else if !progress {
                    io.out("PASS \(c.saga)\n")
                }
                continue
            }
            if update, result.mockProblems.isEmpty, !result.isCut, !result.stoppedByLimit {
                if let why = TextFile.write(result.actual, to: c.golden) {
                    io.err("error: cannot write '\(c.golden)': \(why)\n")
                    failed += 1
                } else {
                    io.out("\(c.hasGolden ? "UPDATED" : "CREATED") \(c.golden)\n")
                    // Errors are not part of a golden: say so, lest a failed saga be kept
                    // unawares as the expected transcript.
                    if result.exitCode != 0, !result.errors.isEmpty {
                        io.out(
                            "  note: the run exited with \(result.exitCode), and its errors are not in the golden:\n"
                                + result.errors.split(separator: "\n").map { "  \($0)\n" }.joined())
                    }
                    passed += 1
                }
                continue
            }
            failed += 1
            io.out("FAIL \(c.saga)\n")
            if result.isCut {
                io.out(
                    "  the transcript passed \(GoldenSuite.transcriptLimit(expected: result.expected) >> 20) MiB: "
                        + "the run was stopped there\(update ? ", and no golden written" : "") "
                        + "(a program that never ends, or a transcript too large for a golden file)\n"
                )
            }
            if result.stoppedByLimit {
                let why = Self.firstError(in: result.errors).map { ": " + $0.trimmingPrefix("error: ") } ?? ""
                io.out(
                    "  a limit stopped the run\(why); a test's program ends on its own"
                        + "\(update ? ", and no golden was written" : "")\n")
            }
            if !result.mockProblems.isEmpty {
                io.out(
                    Self.mockProblemLines(result.mockProblems)
                        + (update ? "  no golden was written: the mocks must fit the run first\n" : ""))
            }
            if result.isCut, !c.hasGolden || update {
                // No golden to hold it against: how the transcript begins says what repeats.
                let lines = result.actual.split(separator: "\n", omittingEmptySubsequences: false)
                io.out("  the transcript begins:\n" + lines.prefix(10).map { "    \($0)\n" }.joined())
            } else if c.hasGolden, result.expected != result.actual {
                // (Without a golden, a diff would only list the transcript.)
                io.out(
                    UnifiedDiff.render(
                        expected: result.expected, actual: result.actual, expectedName: c.golden,
                        actualName: "actual"))
            }
            if !result.errors.isEmpty { io.out("standard error:\n" + result.errors) }
        }
        io.out("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .failure
    }

    /// The mocks' problems, one a line, and what to do about a line no call used.
    private static func mockProblemLines(_ problems: [String]) -> String {
        var lines = problems.map { "  mocks: \($0)\n" }.joined()
        if problems.contains(where: { $0.contains("was not used") }) {
            lines += "  (remove a line no call uses, or mark it \"optional\": true)\n"
        }
        return lines
    }

    /// The first error of a run's standard error (`error: …` or `file:line:column: error: …`),
    /// past its warnings and the source lines they show; its first line if it has no error.
    private static func firstError(in errors: String) -> Substring? {
        let lines = errors.split(separator: "\n")
        return lines.first { $0.hasPrefix("error:") || $0.contains(": error:") } ?? lines.first
    }
}
