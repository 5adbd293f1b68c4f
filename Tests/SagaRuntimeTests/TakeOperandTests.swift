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
}
