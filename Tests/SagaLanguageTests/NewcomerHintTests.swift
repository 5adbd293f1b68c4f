import SagaCore
import Testing

@testable import SagaLanguage

/// Diagnostics for what a redux-saga user writes out of habit.
@Suite struct NewcomerHintTests {
    @Test func aWhereConditionNamingTheTakenActionSaysTheActionIsIt() {
        #expect(
            CheckerTests.errors(#"saga main { let a = take "t" where a.x > 1 }"#) == [
                "1:36: error: unknown variable 'a'; in a 'where' condition the action is 'it'"
            ])
        // Elsewhere, an unknown variable has no such hint.
        #expect(CheckerTests.errors(#"saga main { log a }"#) == ["1:17: error: unknown variable 'a'"])
    }

    @Test func aPutWhosePayloadIsALiteralThatIsNoRecordIsWarnedAbout() {
        #expect(
            CheckerTests.diagnostics(#"saga main { put "job" 5 }"#) == [
                #"1:23: warning: the payload of put "job" must be a record, got number: this fails whenever it runs; "#
                    + #"write put "job" { value: 5 }"#
            ])
        #expect(CheckerTests.diagnostics(#"saga main { put "job" null }"#).count == 1)
        #expect(CheckerTests.diagnostics(#"saga main { put "job" { n: 5 } }"#).isEmpty)
    }

    @Test func aRecordLiteralRepeatingAKeyIsWarnedAbout() {
        #expect(
            CheckerTests.diagnostics(#"saga main { let r = {a: 1, b: 2, a: 3}; log r }"#) == [
                "1:37: warning: duplicate key 'a' in a record literal: the last one wins"
            ])
        #expect(CheckerTests.diagnostics(#"saga main { let r = {a: 1, b: 2}; log r }"#).isEmpty)
    }

    /// What a JavaScript habit gets: what to write instead, with the program's own names where
    /// it has them.
    @Test func javaScriptHabitsAreToldWhatToWrite() {
        let cases: [(String, String)] = [
            (
                #"saga main { let a = take "X"; a.items.forEach(x) }"#,
                "1:31: error: values have no methods: for 'a.items.forEach(…)', write a loop: for x in xs { … }"
            ),
            (
                #"saga main { let a = take "X"; switch (a.type) { } }"#,
                "1:31: error: there is no 'switch' in a saga; write 'if … { … } else if … { … } else { … }'"
            ),
            (
                #"reduce "Y" as a => { state.n = 1 }"#,
                "1:17: error: expected '{' after reducer binding, found '='; there are no arrow functions: "
                    + "a binding's block follows it ('as a { … }'), and a function is a 'func'"
            ),
            (
                #"reduce "Y" as a { state = { ...state, n: 1 } }"#,
                "1:29: error: expected a key in record literal, found '.'; there is no spread ('...'): "
                    + "'r + { k: v }' is r with k set (the right side's keys win), and 'xs + ys' joins two lists"
            ),
            (
                #"saga main { let u = select(s => s.user) }"#,
                "1:27: error: select takes an expression of the state, not a function: write 'select state.user'"
            ),
            (
                #"saga main { let {user, password} = take "LOGIN" }"#,
                "1:17: error: there is no destructuring: write 'let a = …', then read its parts as 'a.user' or 'a[0]'"
            ),
            (
                #"saga main { take "LOGIN" as a }"#,
                "1:26: error: only a watcher binds its action with 'as' (every \"t\" as a { … }); a take gives it: "
                    + "write 'let a = take …'"
            ),
            (
                #"saga main { let user = 1; let r = call(api.authorize, user, "pw") }"#,
                #"1:39: error: a function and its arguments follow 'call' as a call: write 'call api.authorize(user, "pw")'"#
            ),
            (
                #"saga main { let token = 1; put {type: "X", token} }"#,
                "1:49: error: a field needs its value: write 'token: token' (there is no shorthand)"
            ),
            (
                #"saga main { let a = take "X"; if a.n === 1 { log 1 } }"#,
                "1:40: error: expected expression after '==', found '='; '===' is written '=='"
            ),
            (
                #"saga main { for (let i = 0; i < 3; i++) { log i } }"#,
                "1:17: error: a for loop names its variable and a list: write 'for i in range(n) { … }' or 'for x in xs { … }'"
            ),
            (
                #"saga main { var i = 0; console.log(i) }"#,
                #"1:24: error: there is no console: write 'log "…"', with \(x) for a value, as in log "count: \(n)""#
            ),
            (
                #"saga main { put("X", { a: 1, b: [1, "s"] }) }"#,
                #"1:16: error: 'put' takes its operands without parentheses: write 'put "X" { a: 1, b: [1, "s"] }'"#
            ),
            (
                #"saga main { put({ type: "X", id: 1 }) }"#,
                #"1:16: error: 'put' takes its operands without parentheses: write 'put "X" { id: 1 }'"#
            ),
            (
                #"saga main { let jobs = channel; put(jobs, 1) }"#,
                "1:36: error: 'put' takes its operands without parentheses: write 'put jobs 1'"
            ),
            (
                #"saga main { let i = 1; log("i is", i) }"#,
                #"1:27: error: 'log' takes its operands without parentheses: write 'log "i is \(i)"'"#
            ),
            (
                #"saga main { let id = 1; log `hi ${id}!` }"#,
                #"1:29: error: unexpected character '`'; strings are written in double quotes, with \(…) for values: "hi \(id)!""#
            ),
            (
                "saga main { let t = select(s => s.cart.items[0].total) }",
                "1:27: error: select takes an expression of the state, not a function: write 'select state.cart.items[0].total'"
            ),
            (
                "saga main { let s = select() }",
                "1:27: error: select takes no parentheses: write 'select' for the whole state, or 'select state.user'"
            ),
            (
                "func getUser(s) { return s.user }\nsaga main { let u = select(getUser) }",
                "2:28: error: 'getUser' is a function, not a value: to run it, write 'call getUser(…)' (for redux-saga's "
                    + "select(getUser): 'let s = select', then 'let v = call getUser(s)')"
            ),
            (
                "func getUser(s) { return s.user }\nsaga main { let u = select getUser(state) }",
                "2:28: error: 'getUser' is a saga function, which a select cannot run: write 'let s = select', then "
                    + "'let v = call getUser(s)'"
            ),
            ("saga main { cancel() }", "1:19: error: write 'cancel' to cancel this task, or 'cancel t' for the task t"),
            (
                "saga main { let k = Object.keys({ a: 1 }) }",
                "1:21: error: there is no 'Object.keys': the built-in 'keys(r)' does its work"
            ),
            (
                "saga main { rollback }",
                "1:13: error: 'rollback' alone does nothing; to run a function, write 'call rollback()'"
            ),
            (
                #"saga main { debounce("search/input", 300, onInput) }"#,
                #"1:21: error: 'debounce' takes its operands without parentheses: write "#
                    + #"'debounce 300ms "search/input" as a { call onInput(a) }'"#
            ),
            (
                #"saga main { throttle(500, "move", onMove, 1) }"#,
                #"1:21: error: 'throttle' takes its operands without parentheses: write "#
                    + #"'throttle 500ms "move" as a { call onMove(a, 1) }'"#
            ),
            (
                #"saga main { debounce 300ms "search/input" onInput }"#,
                #"1:43: error: expected 'as' after the pattern of 'debounce', found 'onInput': a watcher's body is a "#
                    + #"block that names the action: write 'debounce 300ms "search/input" as a { call onInput(a) }'"#
            ),
            (
                #"saga main { let ch = actionChannel("job", buffers.expanding(10)) }"#,
                #"1:35: error: 'actionChannel' takes its operands without parentheses: write 'actionChannel "job" buffer N KIND'"#
            ),
            (
                #"saga main { race { take "a", timeout: delay 1s } }"#,
                #"1:25: error: 'race' names its entries, as in race { a: take "X", timeout: delay 1s }"#
            ),
            ("saga main { var i = 0; i++ }", "1:24: error: there is no '++': write 'i = i + 1'"),
            ("saga main { var count = 0\n  count--\n}", "2:3: error: there is no '--': write 'count = count - 1'"),
            ("saga main { var i = 0; ++i }", "1:24: error: there is no '++': write 'i = i + 1'"),
            ("saga main { var i = 0; i -= 1 }", "1:24: error: there is no '-=': write 'i = i - …'"),
            ("saga main { var i = 1; i *= 2 }", "1:24: error: there is no '*=': write 'i = i * …'"),
            ("saga main { var r = { n: 1 }; r.n *= 2 }", "1:35: error: there is no '*=': write 'r.n = r.n * …'"),
            (
                "saga main { let y = 1 + x++ }",
                "1:27: error: expected expression after '+', found '+'; there is no '++': write 'x = x + 1'"
            ),
            (
                #"saga main { throw Error("boom") }"#,
                #"1:19: error: unknown function 'Error'; there are no error classes: throw a value, such as "#
                    + #"'throw "message"' or 'throw { message: "…", code: 42 }'"#
            ),
            (
                "func f(a) { return a }\nsaga main { let r = retry(3, 1000, f, 7) }",
                "2:26: error: 'retry' takes its operands without parentheses: write 'retry 3 delay 1000ms call f(7)'"
            ),
            (
                "saga main { let r = { a: null }; log r?.a }",
                "1:39: error: unexpected character '?'; there is no '?.': access on null gives null, so write 'x.y'"
            ),
            (
                #"saga main { throw new Error("boom") }"#,
                #"1:19: error: there is no 'new': throw a value, such as 'throw "message"' or 'throw { message: "…", code: 42 }'"#
            ),
            (
                "extern func f()\nsaga main { retry 3 1000 call f() }",
                "2:21: error: the time between attempts follows 'delay': write 'retry N delay 1000 …'"
            ),
            (
                #"saga main { let c = select(state => state.count) }"#,
                "1:27: error: select takes an expression of the state, not a function: write 'select state.count'"
            ),
            (
                "function* worker() { }",
                "1:1: error: there is no 'function' here; a saga is 'saga name { … }' and a function 'func name(a, b) { … }'"
            ),
            (
                "export default saga main { }",
                "1:1: error: there is no 'export' here; every declaration of a file is seen by the files that import "
                    + #"it: write 'import "file.saga"' there"#
            ),
        ]
        for (source, expected) in cases {
            #expect(CheckerTests.errors(source).first == expected, "\(source)")
        }
    }

    /// JavaScript's `${x}` inside a double-quoted string is text: a warning says how a value
    /// goes in.
    @Test func templateSyntaxInAStringIsWarnedOf() {
        let warning = "warning: '${…}' is text in a string: write '\\(…)' to put a value in it"
        #expect(CheckerTests.diagnostics(#"saga main { let i = 1; log "value ${i} \(i)" }"#) == ["1:28: " + warning])
        #expect(CheckerTests.diagnostics(#"saga main { log "costs $5" }"#).isEmpty)
    }

    /// Parentheses that hold one operand are an expression's, after `put` and `log` too.
    @Test func aParenthesizedOperandIsAnExpression() {
        #expect(CheckerTests.errors(#"saga main { put ("x"); put("y") { n: 1 }; log ("a"); log("b") }"#).isEmpty)
    }

    /// In a `where` condition an unknown name is most likely the action: `it` is named, beside
    /// a close variable's name.
    @Test func anUnknownNameInAWhereConditionNamesIt() {
        #expect(
            CheckerTests.errors(#"saga main { let t = 1; log t; take "A" where a.id == 1 }"#) == [
                "1:46: error: unknown variable 'a'; did you mean 't'? (in a 'where' condition the action is 'it')"
            ])
    }

    /// `put ch` of a `let` made by `channel` has no value to put: the run always refuses it.
    @Test func aPutOfAChannelWithNoValueIsWarnedAbout() {
        #expect(
            CheckerTests.diagnostics(#"saga main { let ch = channel; put ch }"#) == [
                "1:35: warning: 'ch' is a channel: put ch VALUE puts a value into it; this fails whenever it runs"
            ])
        #expect(CheckerTests.diagnostics(#"saga main { let ch = channel; put ch 1 }"#).isEmpty)
        // A variable that may hold an action is not known to hold a channel.
        #expect(CheckerTests.diagnostics(#"saga main { var a = channel; a = {type: "t"}; put a }"#).isEmpty)
    }

    /// `race {}` gives `{}` at once, where redux-saga's never ends: the checker says so.
    @Test func anEmptyRaceIsWarnedAbout() {
        #expect(
            CheckerTests.diagnostics(#"saga main { let r = race {}; log r }"#) == [
                "1:21: warning: a race with no entries gives {} at once (redux-saga's never ends)"
            ])
        #expect(CheckerTests.diagnostics(#"saga main { let r = race { t: delay 1ms }; log r }"#).isEmpty)
    }

    /// What the run refuses whenever it gets there (a literal that is not a duration for
    /// `delay`, not a task for `cancel` or `join`, not an action for `put`, not a pattern for
    /// `take`, not a bool for a condition, not a whole number for a buffer, a member of a
    /// number, an operation between literals that always fails) is a warning: a program may
    /// mean it, to show what a `catch` gets.
    @Test func literalsTheRunWouldRefuseAreReported() {
        #expect(
            CheckerTests.diagnostics(#"saga main { delay "soon" }"#) == [
                "1:19: warning: delay needs a number of milliseconds, got string: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { cancel 5 }"#) == [
                "1:20: warning: cancel needs a task or a list of tasks, got number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { log 1 + "a" }"#) == [
                "1:17: warning: cannot add number and string: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { log 1 / 0 }"#).first?.hasSuffix(": this fails whenever it runs")
                == true)
        #expect(
            CheckerTests.diagnostics(#"saga main { if 1 { log 1 } }"#) == [
                "1:16: warning: a condition must be true or false, got number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { while "x" { log 1 } }"#) == [
                "1:19: warning: a condition must be true or false, got string: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { put 5 }"#) == [
                "1:17: warning: put needs an action, got number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { let a = take true; log a }"#) == [
                "1:26: warning: take needs a channel, a type pattern or a list of them, got bool: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { log 5.a }"#) == [
                "1:17: warning: cannot read '.a' of a number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { join 5 }"#) == [
                "1:18: warning: join needs a task or a list of tasks, got number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { let c = channel buffer "x"; log c }"#) == [
                "1:36: warning: a buffer size is a whole number of messages, got string: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { let a = take "a" where 5; log a }"#) == [
                "1:36: warning: a condition must be true or false, got number: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics(#"saga main { let c = channel buffer -1; log c }"#) == [
                "1:36: warning: a buffer size is a whole number ≥ 0, got -1: this fails whenever it runs"
            ])
        #expect(
            CheckerTests.diagnostics("saga main { let r = retry -2 call f() }\nfunc f() { return 1 }") == [
                "1:27: error: retry needs a whole number of at least 1, got -2"
            ])
        #expect(
            CheckerTests.diagnostics(
                #"saga main { delay 10ms; delay 2.5; log 1 + 2.5; log "a" + "b"; log 3 < 4; log null ?? 1 }"#
            ).isEmpty)
        #expect(
            CheckerTests.diagnostics(
                #"saga main { if true { log 1 }; while false { log 2 }; join []; let c = channel buffer 2; log c }"#
            ).isEmpty)
    }

    @Test func aLiteralPayloadHoldingTypeIsRefused() {
        #expect(
            CheckerTests.errors(#"saga main { put "a" { type: "b", n: 1 } }"#) == [
                #"1:21: error: the payload of put "a" must not hold 'type'; to put a whole action, write put { type: …, … }"#
            ])
        #expect(CheckerTests.errors(#"saga main { put { type: "b", n: 1 } }"#).isEmpty)
    }
}
