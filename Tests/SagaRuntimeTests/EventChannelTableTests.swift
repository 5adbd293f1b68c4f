import SagaCore
import Testing

@testable import SagaRuntime

/// The bookkeeping of a run's event channels: input lines kept for a channel not open yet,
/// and what is left undelivered at the end.
@Suite struct EventChannelTableTests {
    @Test func inputForAChannelNotOpenIsKeptInOrderWithItsClose() {
        var table = EventChannelTable()
        table.hold(.int(1), for: "feed")
        table.hold(.int(2), for: "feed")
        table.hold(nil, for: "feed")
        table.hold(.int(9), for: "other")
        #expect(!table.isOpen("feed"))
        let held = table.takeHeldInput(for: "feed")
        #expect(held?.messages == [.int(1), .int(2)])
        #expect(held?.closed == true)
        #expect(table.takeHeldInput(for: "feed") == nil)
        let (channels, undelivered) = table.removeAll()
        #expect(channels.isEmpty)
        #expect(undelivered == ["other"])
        #expect(table.removeAll().undelivered.isEmpty)
    }

    @Test func endIsHeldBackWhileASourceThatHoldsItIsOpen() {
        var table = EventChannelTable()
        #expect(!table.holdsEnd)
        table.noteSource(holdingEnd: true)
        table.noteSource(holdingEnd: true)
        table.noteSource(holdingEnd: false)
        #expect(table.holdsEnd)
        table.noteSource(holdingEnd: false)
        #expect(!table.holdsEnd)
    }
}
