import SagaCore
import Testing

@testable import SagaCommandLine

/// `store verify`'s text report writes an entity's name as it is, unless it holds a control
/// character, which would break the report's lines (or write a NUL to a terminal).
@Suite struct StoreReportTextTests {
    @Test func anEntityNameWithAControlCharacterIsShownAsAJSONString() {
        #expect(StoreCommand.shown("songs") == "songs")
        #expect(StoreCommand.shown("café") == "café")
        #expect(StoreCommand.shown("a\u{0}b") == #""a\u0000b""#)
        #expect(StoreCommand.shown("two\nlines") == #""two\nlines""#)
        #expect(StoreCommand.shown("") == #""""#)
    }
}
