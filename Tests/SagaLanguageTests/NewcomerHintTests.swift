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

    @Test func aRecordLiteralRepeatingAKeyIsWarnedAbout() {
        #expect(
            CheckerTests.diagnostics(#"saga main { let r = {a: 1, b: 2, a: 3}; log r }"#) == [
                "1:37: warning: duplicate key 'a' in a record literal: the last one wins"
            ])
        #expect(CheckerTests.diagnostics(#"saga main { let r = {a: 1, b: 2}; log r }"#).isEmpty)
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
