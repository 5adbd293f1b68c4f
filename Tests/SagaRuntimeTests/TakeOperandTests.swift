import Testing

/// `take` of a value that is neither a channel nor a type pattern says what it takes.
@Suite struct TakeOperandTests {
    @Test func aNumberIsRefusedNamingWhatATakeNeeds() async throws {
        let run = await runConfigured("saga main {\n  let x = 5\n  take x\n}\n")
        let error = try #require(run.errors.first)
        #expect(
            error.hasPrefix(
                "error: saga main failed: take needs a channel, a type pattern or a list of them, got number"))
    }

    /// A watcher's pattern that is no pattern is refused naming the watcher, whose loop takes it;
    /// a saga function named `watcher` still says `take`.
    @Test func aWatchersNumberIsRefusedNamingTheWatcher() async throws {
        let watched = await runConfigured(
            "saga main {\n  let p = 5\n  latest p as a { log \"x\" }\n}\n", input: [#"{"type":"x"}"#])
        let error = try #require(watched.errors.first)
        #expect(error.hasPrefix("error: saga main failed: latest needs a channel, a type pattern or a list of them"))
        let called = await runConfigured("func watcher() { take 5 }\nsaga main { fork watcher() }\n")
        let other = try #require(called.errors.first)
        #expect(other.hasPrefix("error: saga main failed: take needs a channel"))
    }
}
