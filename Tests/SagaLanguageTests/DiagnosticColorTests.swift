import Foundation
import SagaCore
import SagaLanguage
import Testing

/// Diagnostics in colour, for a terminal.
@Suite struct DiagnosticColorTests {
    @Test func colorsMarkTheSeverityAndTheCaretOnly() {
        let file = SourceFile(path: "a.saga", text: "saga a {\n  log x\n}\n")
        let d = Diagnostic.error("unknown variable 'x'", at: SourceLocation(file: 0, line: 2, column: 7))
        let plain = d.rendered(files: [file])
        #expect(plain == "a.saga:2:7: error: unknown variable 'x'\n  log x\n      ^")
        let colored = d.rendered(files: [file], colors: true)
        #expect(colored.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        #expect(colored.hasSuffix("      \u{1B}[1;32m^\u{1B}[0m"))
        #expect(colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == plain)
        #expect(d.rendered(files: [file], colors: false) == plain)
    }

    /// A NUL or an escape sequence in a source line is shown as U+FFFD, one for one, so that
    /// the terminal is not rewritten and the caret still points at the character.
    @Test func controlCharactersInTheSourceLineAreNotPrintedRaw() {
        let source = "saga main {\n  log 1 \u{0} \u{1B}[31m\n}\n"
        let result = Frontend().compile(source: source, path: "nul.saga")
        let rendered = result.diagnostics.map { $0.rendered(files: result.files) }
        #expect(
            rendered == [
                "nul.saga:2:9: error: unexpected character U+0\n  log 1 \u{FFFD} \u{FFFD}[31m\n        ^",
                "nul.saga:2:11: error: unexpected character U+1B\n  log 1 \u{FFFD} \u{FFFD}[31m\n          ^",
            ])
    }
}

/// A long source line is shown around the column, cut with `…`, and the caret still points
/// at the column; a list literal past its cap is an error, not gigabytes of syntax tree.
@Suite struct LongLineDiagnosticTests {
    @Test func aLongLineIsShownAroundTheColumn() {
        let elements = String(repeating: "1,", count: (1 << 20) + 100)
        let result = Frontend().compile(source: "saga s { let xs = [\(elements)1]\n log xs }\n", path: "big.saga")
        let rendered = result.diagnostics.map { $0.rendered(files: result.files) }
        #expect(rendered.count == 1)
        let lines = rendered.first?.split(separator: "\n").map(String.init) ?? []
        #expect(
            lines.first?.hasSuffix(
                "error: a list literal has at most 1048576 elements; build a longer list with range() or +") == true)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("…1,1,") && lines[1].hasSuffix(",…") && lines[1].count == 122)
        #expect(lines[2] == String(repeating: " ", count: 61) + "^")
    }
}

/// A `let` or `var` of a plain value that nothing reads is probably a mistake.
@Suite struct UnusedVariableWarningTests {
    @Test func unusedPlainVariablesAreWarnedAbout() {
        let source = """
            saga main {
              let unused = 1
              let used = 2
              let _quiet = 3
              let fromEffect = select
              log used
              fork { let inner = 4 }
            }
            """
        let result = Frontend().compile(source: source, path: "w.saga")
        #expect(result.program != nil)
        let warnings = result.diagnostics.filter { $0.severity == .warning }.map {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
        #expect(
            warnings == [
                "2:7: variable 'unused' was never used; remove it, or name it '_unused'",
                "7:14: variable 'inner' was never used; remove it, or name it '_inner'",
            ])
    }
}

/// A misspelled keyword gets a suggestion.
@Suite struct KeywordSuggestionTests {
    @Test func misspelledStatementAndDeclarationKeywords() {
        let source = "saga main {\n  evry \"x\" as a { log a }\n  tkae \"y\"\n}\nsgaa other { }\n"
        let errors = Frontend().compile(source: source, path: "k.saga").diagnostics.filter { $0.severity == .error }.map
        {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
        #expect(
            errors == [
                "2:3: unknown statement 'evry'; did you mean 'every'?",
                "3:3: unknown statement 'tkae'; did you mean 'take'?",
                "5:1: unknown declaration 'sgaa'; did you mean 'saga'?",
            ])
    }

    /// A name where an effect belongs, an operand after it on its line, is told apart from an
    /// expression, on the right of `let` as standing alone.
    @Test func aNameWhereAnEffectBelongs() {
        let source = """
            saga main {
              let x = takee "foo"
              takeLatest "x" as a { log a }
              let r = takeEvery "y"
              fetch "/api"
              let d = fetch "/api"
            }
            """
        let errors = Frontend().compile(source: source, path: "k.saga").diagnostics.filter { $0.severity == .error }.map
        {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
        #expect(
            errors == [
                "2:11: unknown effect 'takee'; did you mean 'take'?",
                "3:3: redux-saga's takeLatest is the watcher 'latest' here: latest \"type\" as a { … }",
                "4:11: redux-saga's takeEvery is the watcher 'every' here: every \"type\" as a { … }",
                "5:3: 'fetch' is not an effect; to run a function, write 'call fetch(…)'",
                "6:11: 'fetch' is not an effect; to run a function, write 'call fetch(…)'",
            ])
    }
}

/// What a redux-saga user writes from habit gets told what to write here.
@Suite struct ReduxSagaHabitTests {
    @Test func generatorsHelpersAndConstSayWhatToWriteInstead() {
        let lines = [
            "  yield take \"x\"", "  const n = 1", "  takeLatest(\"x\", fetch)", "  takeEvery(\"y\", handle)",
            "  put \"user/add\"\n  { name: \"Ada\" }", "  let a = yield take \"x\"", "  if cancelled() { log 1 }",
            "  let r = race [take \"a\", delay 1s]", "  let r = race { a: tkae \"a\" }", "  retry 3 cal f()",
            "  retry 3 delay 1s cal f()", "  call(f, 1)", "  return call f()", "  retry 3 backof 10ms call f()",
            "  retry call f()", "  retry 3 backoff call f()", "  throttle \"x\" as a { log a }",
            "  let ch = chanel\n  log ch", "  let ch = eventChannel(f)\n  log ch",
            "  let r = race { a: f(), b: delay 1s }",
            "  retry 3 f()", "  let x = call f() + 1",
        ]
        let errors = lines.map { line in
            Frontend().compile(source: "saga main {\n\(line)\n}\n", path: "h.saga").diagnostics
                .filter { $0.severity == .error }.map { "\($0.location.line):\($0.location.column): \($0.message)" }
                .first ?? ""
        }
        #expect(
            errors == [
                #"2:3: there is no 'yield' in a saga; write the effect alone, as in 'take "x"' or 'let a = take "x"'"#,
                "2:3: there is no 'const' in a saga; write 'let' (or 'var' for a variable assigned again)",
                #"2:3: redux-saga's takeLatest is the watcher 'latest' here: latest "type" as a { … }"#,
                #"2:3: redux-saga's takeEvery is the watcher 'every' here: every "type" as a { … }"#,
                #"3:3: a record alone does nothing; a put's payload starts on the line of the put, as in put "type" { key: value }"#,
                #"2:11: there is no 'yield' in a saga; write the effect alone, as in 'take "x"' or 'let a = take "x"'"#,
                "2:15: 'cancelled' is a value here, not a function: write 'cancelled' without '()'",
                #"2:16: a race names its entries: race { a: take "X", timeout: delay 1s }, found '['"#,
                "2:21: expected an effect (take, put, call, delay, …) after ':', found 'tkae'; did you mean 'take'?",
                "2:11: expected an effect (take, put, call, delay, …) after 'retry N', found 'cal'; did you mean 'call'?",
                "2:20: expected an effect (take, put, call, delay, …) after 'retry N delay D', found 'cal'; did you mean 'call'?",
                "2:7: a function and its arguments follow 'call' as a call: write 'call f(1)'",
                "2:10: return takes a value, not an effect: write 'let r = call …' and then 'return r'",
                "2:11: expected 'delay D', 'backoff D' or an effect after 'retry N', found 'backof'; did you mean 'backoff'?",
                "2:9: expected the number of attempts after 'retry' (retry 3 call f()), found 'call'",
                "2:19: expected the first wait after 'retry N backoff' (retry 3 backoff 100ms …), found 'call'",
                #"2:16: expected a pattern after the duration of 'throttle', found 'as': the duration comes first ('throttle 100ms "type" as a { … }')"#,
                "2:12: unknown variable 'chanel'; did you mean 'channel'?",
                "2:12: unknown function 'eventChannel'; an event channel comes from a host function (see “Event channels”: the host sends, and closes it)",
                "2:21: 'f' is not an effect; to run a function, write 'call f(…)'",
                "2:11: 'f' is not an effect; to run a function, write 'call f(…)'",
                "2:20: an effect's value cannot be part of an expression: write 'let v = …' with the effect alone, then use v (found '+' after it)",
            ])
    }
}

/// The state key `persistence` belongs to the persistence reducer (see “Declarations” in
/// Sagas/README.md).
@Suite struct ReservedPersistenceKeyTests {
    @Test func declaringOrAssigningItIsAnError() {
        let source = """
            state { count: 0, persistence: {} }
            reduce "x" as a {
              state.persistence.songs = 1
              state = { count: 1 }
              let p = state.persistence
              state.count = len(p)
            }
            """
        let errors = Frontend().compile(source: source, path: "r.saga").diagnostics.filter { $0.severity == .error }.map
        {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
        #expect(
            errors == [
                "1:32: the state key 'persistence' is reserved for the persistence reducer",
                "3:3: 'state.persistence' is kept by the persistence reducer; a reducer may read it, not assign it",
            ])
    }
}
