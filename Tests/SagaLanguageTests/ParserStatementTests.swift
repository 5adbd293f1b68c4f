import SagaCore
import Testing

@testable import SagaLanguage

@Suite struct ParserStatementTests {
    @Test func declarationsAndAssignments() {
        #expect(ParseFixture.body("let x = 1\nvar y = x") == "(let x 1) (var y x)")
        #expect(ParseFixture.body("y = y + 1") == "(= y (+ y 1))")
        #expect(ParseFixture.body("state.users[a.id].name = a.name") == "(= state.users[(. a id)].name (. a name))")
        #expect(
            ParseFixture.body("let a = take \"x\"; var b = put \"y\"; b = select")
                == #"(let a (take "x")) (var b (put "y")) (= b (select))"#)
    }

    @Test func anExpressionCannotStandAlone() {
        #expect(
            ParseFixture.errors("saga s {\n  x + 1\n}") == [
                "2:3: expression result unused; only effects can stand alone"
            ])
        #expect(
            ParseFixture.errors("saga s {\n  fetchUser(1)\n}") == [
                "2:3: expression result unused; only effects can stand alone (to run a function, write 'call fetchUser(…)')"
            ])
        #expect(ParseFixture.errors("saga s {\n  a + b = 1\n}") == ["2:3: cannot assign to this expression"])
    }

    @Test func logThrowReturnBreakContinue() {
        #expect(
            ParseFixture.body("log \"hi\"\nthrow {message: \"no\"}") == #"(log "hi") (throw (record (message "no")))"#)
        #expect(ParseFixture.body("loop { break; continue }") == "(loop {(break) (continue)})")
        #expect(ParseFixture.body("return\nreturn x + 1") == "(return) (return (+ x 1))")
        #expect(ParseFixture.body("if a { return }") == "(if (a {(return)}))")
    }

    @Test func controlFlow() {
        #expect(
            ParseFixture.body("if a { log 1 } else if b { log 2 } else { log 3 }")
                == "(if (a {(log 1)}) (b {(log 2)}) (else {(log 3)}))")
        // `else` may start the next line.
        #expect(ParseFixture.body("if a {\n log 1\n}\nelse {\n log 2\n}") == "(if (a {(log 1)}) (else {(log 2)}))")
        #expect(ParseFixture.body("while i < 3 { i = i + 1 }") == "(while (< i 3) {(= i (+ i 1))})")
        #expect(ParseFixture.body("for x in [1, 2] { log x }") == "(for x [1 2] {(log x)})")
    }

    @Test func tryCatchFinally() {
        #expect(
            ParseFixture.body("try { call f() } catch e { log e.message } finally { log cancelled }")
                == "(try {(call f)} (catch e {(log (. e message))}) (finally {(log cancelled)}))")
        #expect(ParseFixture.body("try { log 1 }\ncatch e { log 2 }") == "(try {(log 1)} (catch e {(log 2)}))")
        #expect(ParseFixture.body("try { log 1 } finally { log 2 }") == "(try {(log 1)} (finally {(log 2)}))")
        #expect(
            ParseFixture.errors("saga s {\n  try { log 1 }\n}") == [
                "2:16: expected 'catch' or 'finally' after try block, found newline"
            ])
    }

    @Test func transactionsAndCompensation() {
        #expect(
            ParseFixture.body("transaction {\n  let r = call book()\n  compensate { call unbook(r) }\n}")
                == "(transaction {(let r (call book)) (compensate {(call unbook r)})})")
    }

    @Test func statementsEndAtNewlinesInsideBlocks() {
        #expect(ParseFixture.body("if a {\n log 1\n log 2\n}") == "(if (a {(log 1) (log 2)}))")
        #expect(
            ParseFixture.errors("saga s { log 1 log 2 }") == [
                "1:16: expected newline or ';' after statement, found 'log'"
            ])
    }

    @Test func keywordsAreNotIdentifiers() {
        #expect(
            ParseFixture.errors("saga s { let take = 1 }") == [
                "1:14: 'take' is a keyword and cannot be used as an identifier"
            ])
        #expect(ParseFixture.errors("saga all { }") == ["1:6: 'all' is a keyword and cannot be used as an identifier"])
    }
}

@Suite struct ParserEffectTests {
    @Test func takeAndPatterns() {
        #expect(ParseFixture.body("take \"a\"") == #"(take "a")"#)
        #expect(ParseFixture.body("take *") == "(take *)")
        #expect(ParseFixture.body("take [\"a\", \"b/*\"]") == #"(take ["a" "b/*"])"#)
        #expect(ParseFixture.body("take ch") == "(take ch)")
        #expect(
            ParseFixture.body("let a = take \"a\" where it.id == 3") == #"(let a (take "a" (where (== (. it id) 3))))"#)
    }

    @Test func putForms() {
        #expect(ParseFixture.body("put \"a/b\" {x: 1}") == #"(put "a/b" (record (x 1)))"#)
        #expect(ParseFixture.body("put action") == "(put action)")
        #expect(ParseFixture.body("put ch 42") == "(put ch 42)")
        #expect(ParseFixture.body("put ch (1 + 2)") == "(put ch (+ 1 2))")
        #expect(ParseFixture.body("put ch [1, 2]") == "(put ch [1 2])")
        // The payload must start on the line of `put`.
        #expect(
            ParseFixture.errors("saga s {\n  put \"a\"\n  {x: 1}\n}") == [
                "3:3: a record alone does nothing; a put's payload starts on the line of the put, "
                    + #"as in put "type" { key: value }"#
            ])
        #expect(ParseFixture.body("put \"a\" {\n  x: 1\n}\nlog 1") == #"(put "a" (record (x 1))) (log 1)"#)
    }

    @Test func selectCancelAndFriends() {
        #expect(ParseFixture.body("select\nselect state.a") == "(select) (select (. state a))")
        #expect(ParseFixture.body("if a { let s = select }") == "(if (a {(let s (select))}))")
        #expect(ParseFixture.body("cancel\ncancel t") == "(cancel) (cancel t)")
        #expect(ParseFixture.body("join t\njoin [t1, t2]") == "(join t) (join [t1 t2])")
        #expect(ParseFixture.body("delay 1.5s") == "(delay 1500)")
        #expect(
            ParseFixture.body("let c = channel\nlet d = channel buffer 10")
                == "(let c (channel)) (let d (channel (buffer 10)))")
        #expect(
            ParseFixture.body("let c = actionChannel \"a/*\" buffer 5\nlet d = actionChannel *")
                == #"(let c (actionChannel "a/*" (buffer 5))) (let d (actionChannel *))"#)
    }

    @Test func callForkSpawn() {
        #expect(ParseFixture.body("let u = call api.fetchUser(id, 2)") == "(let u (call api.fetchUser id 2))")
        #expect(ParseFixture.body("call f()") == "(call f)")
        #expect(
            ParseFixture.body("let t = fork worker(1)\nspawn {\n log 1\n}")
                == "(let t (fork worker 1)) (spawn {(log 1)})")
        #expect(ParseFixture.body("fork { log 1 }") == "(fork {(log 1)})")
        #expect(ParseFixture.errors("saga s { call f }") == ["1:17: expected '(' after function name 'f', found '}'"])
    }

    @Test func raceAndAll() {
        #expect(
            ParseFixture.body("let r = race { ok: take \"a\", timeout: delay 1s }")
                == #"(let r (race (ok (take "a")) (timeout (delay 1000))))"#)
        #expect(
            ParseFixture.body("let r = race {\n  \"a b\": take \"a\",\n  t: delay 1s,\n}\nlog r")
                == #"(let r (race (a b (take "a")) (t (delay 1000)))) (log r)"#)
        #expect(ParseFixture.body("all { a: call f(), b: call g() }") == "(all (a (call f)) (b (call g)))")
        #expect(ParseFixture.body("all [\n call f(),\n call g()\n]") == "(all [(call f) (call g)])")
        #expect(
            ParseFixture.body("let xs = all for id in ids { call fetch(id) }")
                == "(let xs (all-for id ids (call fetch id)))")
        // A fork block inside a race entry: its statements still end at newlines.
        #expect(
            ParseFixture.body("race {\n  w: fork {\n    log 1\n    log 2\n  },\n  t: take \"x\"\n}")
                == #"(race (w (fork {(log 1) (log 2)})) (t (take "x")))"#)
        // A `put` payload in an entry list must be on the line of `put`.
        #expect(
            ParseFixture.body("all {\n  a: put \"x\"\n  , b: take \"y\"\n}") == #"(all (a (put "x")) (b (take "y")))"#)
    }

    @Test func retry() {
        #expect(ParseFixture.body("retry 3 call f()") == "(retry 3 (call f))")
        #expect(ParseFixture.body("retry 3 delay 1s call f()") == "(retry 3 (delay 1000) (call f))")
        #expect(
            ParseFixture.body("let r = retry n backoff 100ms call f(x)") == "(let r (retry n (backoff 100) (call f x)))"
        )
        // `delay` right after N is always the wait option.
        #expect(ParseFixture.body("retry 3 delay 1s delay 2s") == "(retry 3 (delay 1000) (delay 2000))")
        #expect(ParseFixture.errors("saga s { retry 3 delay 1s }").count == 1)
    }

    @Test func watchers() {
        #expect(ParseFixture.body("every \"a\" as a { log a }") == #"(every "a" a {(log a)})"#)
        #expect(ParseFixture.body("latest * as a { log a }") == "(latest * a {(log a)})")
        #expect(ParseFixture.body("leading [\"a\", \"b\"] as a { }") == #"(leading ["a" "b"] a {})"#)
        #expect(ParseFixture.body("throttle 100ms \"a\" as a { log a }") == #"(throttle 100 "a" a {(log a)})"#)
        #expect(ParseFixture.body("debounce 1s \"a\" as a { log a }") == #"(debounce 1000 "a" a {(log a)})"#)
        #expect(
            ParseFixture.body("let w = every \"a\" as a { log a }\ncancel w")
                == #"(let w (every "a" a {(log a)})) (cancel w)"#)
        guard
            case .effect(.watcher(let w), let at)? = ParseFixture.firstStatement(
                "saga s {\n  throttle 5s \"x\" as a {}\n}")
        else {
            Issue.record("expected a watcher statement")
            return
        }
        #expect(w.kind == .throttle)
        #expect(at == SourceLocation(file: 0, line: 2, column: 3))
        #expect(w.binding.name == "a" && w.binding.slot == -1)
    }
}
